// Where the repository and its packages are, and what their manifests say.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository this tool sits in: tools/release/src/../../.. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The package.json of a workspace package, by its folder relative to `root`. */
export function manifestOf(root, folder) {
  return readJson(join(root, folder, 'package.json'));
}
