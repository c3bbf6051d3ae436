import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { npmInstall } from '../index.mjs';

let work;
let registry;

/** Packs a tiny package with npm, so the registry serves a tarball npm itself made. */
function packTinyPackage() {
  const source = join(work, 'source');
  mkdirSync(source);
  writeFileSync(join(source, 'package.json'), JSON.stringify({ name: 'stagelink-tiny', version: '1.0.0' }));
  writeFileSync(join(source, 'index.js'), 'module.exports = 1;\n');
  execFileSync('npm', ['pack', '--pack-destination', work, '--loglevel', 'error'], { cwd: source, stdio: 'ignore' });
  return join(work, readdirSync(work).find((file) => file.endsWith('.tgz')));
}

async function startRegistry(stalls) {
  registry = spawn(process.execPath, [join(import.meta.dirname, 'support', 'stalling-registry.mjs'), packTinyPackage(), String(stalls)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await once(registry.stdout, 'data');
  return String(line).trim();
}

function install(url, options) {
  const cwd = join(work, 'project');
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(cwd, 'package.json'), JSON.stringify({ name: 'project', private: true }));
  // npm's own retries wait 10 s and more; these tests count the installer's.
  npmInstall(['install', 'stagelink-tiny@1.0.0', '--registry', url, '--fetch-retries', '0'], { cwd, cache: join(work, 'cache'), retryDelayMs: 100, fetchTimeoutMs: 1000, label: 'test', ...options });
  return cwd;
}

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'stagelink-registry-install-'));
});

afterEach(() => {
  registry?.kill();
  rmSync(work, { recursive: true, force: true });
});

describe('npmInstall', () => {
  it('installs through a registry whose first answers stall mid-body', async () => {
    const url = await startRegistry(1);
    const cwd = install(url, { attempts: 3 });
    expect(existsSync(join(cwd, 'node_modules', 'stagelink-tiny', 'index.js'))).toBe(true);
  });

  it('gives up with the command and the number of tries once every try stalled', async () => {
    const url = await startRegistry(100);
    expect(() => install(url, { attempts: 2 })).toThrow(/^test: npm install stagelink-tiny@1\.0\.0 .* failed 2 times; is the npm registry reachable\?$/);
  });
});
