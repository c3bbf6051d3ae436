// `pnpm release:bundle` (after the builds and the plugin's pack, which that script runs first): writes
// release/stagelink-<version>/ at the repository root.
import { join } from 'node:path';
import { assembleRelease } from './bundle.mjs';
import { REPO_ROOT } from './workspace.mjs';

try {
  const { dir, files } = await assembleRelease({ root: REPO_ROOT, outDir: join(REPO_ROOT, 'release'), log: (line) => console.log(`release: ${line}`) });
  console.log(`release: ${files.length} files in ${dir}`);
} catch (error) {
  console.error(`release: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
