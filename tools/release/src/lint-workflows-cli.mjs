// The lint task's second half (`pnpm --filter @stagelink/release lint`): actionlint over .github/workflows.
import { lintWorkflows } from './lint-workflows.mjs';
import { REPO_ROOT } from './workspace.mjs';

try {
  const { files, problems } = await lintWorkflows(REPO_ROOT);
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exitCode = 1;
  else console.log(`actionlint: ${files.join(', ')}: no problems`);
} catch (error) {
  console.error(`actionlint: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
