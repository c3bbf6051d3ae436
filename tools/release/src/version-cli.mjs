// `pnpm release:version`: cuts the release from the pending changesets (see version-cut.mjs). Commit what it
// changed (versions, CHANGELOG.md files, the consumed changesets, the plugin manifest) as the release commit.
import { cutRelease } from './version-cut.mjs';
import { REPO_ROOT } from './workspace.mjs';

try {
  const version = cutRelease(REPO_ROOT);
  console.log(`release: cut ${version}; review the CHANGELOG.md files and commit.`);
} catch (error) {
  console.error(`release: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
