// The bundle as `pnpm release:bundle` writes it, checked as a venue gets it: checksums, SBOMs and INSTALL.md, then
// every artefact a venue installs installed with the network cut off (npm `--offline`, an empty cache) and run.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadPackedModule } from '@stagelink/companion/testing';
import { startNodeRed, writeSettings } from '@stagelink/node-red/testing';
import { zipEntries } from '@stagelink/streamdeck/packed';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleRelease, GUIDE, SUMS } from '../src/bundle.mjs';
import { sha256Of } from '../src/checksums.mjs';
import { REPO_ROOT, manifestOf } from '../src/workspace.mjs';
import { installOffline, offlineNpmEnv } from './support/offline.mjs';

const require = createRequire(import.meta.url);
const NODE_TYPES = Object.keys(manifestOf(REPO_ROOT, 'packages/node-red')['node-red'].nodes);
const STREAMDECK_CLI = join(dirname(require.resolve('@elgato/cli/package.json')), 'bin', 'streamdeck.mjs');

let release;
let out;
const fileOf = (id) => release.layout.files.find(({ artefact }) => artefact.id === id).file;
const pathOf = (id) => join(release.dir, fileOf(id));
const sbomOf = (id) => JSON.parse(readFileSync(`${pathOf(id)}.cdx.json`, 'utf8'));
const componentNames = (id) => sbomOf(id).components.map(({ name }) => name);

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'stagelink-release-'));
  release = await assembleRelease({ root: REPO_ROOT, outDir: out });
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the release bundle', () => {
  it('holds every artefact under a name with the version, an SBOM for each, INSTALL.md and SHA256SUMS over them all', () => {
    expect(release.dir.endsWith(`stagelink-${release.version}`)).toBe(true);
    expect(readdirSync(release.dir).sort()).toEqual([...release.files].sort());
    const sums = readFileSync(join(release.dir, SUMS), 'utf8').trim().split('\n').map((line) => line.split('  '));
    expect(sums.map(([, file]) => file).sort()).toEqual(release.files.filter((file) => file !== SUMS).sort());
    for (const [sum, file] of sums) expect(`${file} ${sha256Of(join(release.dir, file))}`).toBe(`${file} ${sum}`);
  });

  it('lists in each SBOM the packages bundled inside the artefact, and core the ones npm installs beside it', () => {
    expect(componentNames('stagelink-bridge')).toEqual(expect.arrayContaining(['@stagelink/core', 'mqtt', 'undici', 'ws']));
    expect(componentNames('stagelink-simulator')).toEqual(expect.arrayContaining(['@stagelink/core', 'ws', 'bonjour-service']));
    expect(componentNames('stagelink-node-red')).toEqual(expect.arrayContaining(['@stagelink/core', 'undici', 'ws']));
    expect(componentNames('streamdeck')).toEqual(expect.arrayContaining(['@stagelink/core', '@elgato/streamdeck']));
    expect(componentNames('companion')).toEqual(expect.arrayContaining(['@stagelink/core', '@companion-module/base']));
    expect(componentNames('stagelink-core')).toEqual(expect.arrayContaining(['undici', 'ws', 'bonjour-service']));
    const bridge = sbomOf('stagelink-bridge');
    expect(bridge).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.5' });
    expect(bridge.metadata.component).toMatchObject({ name: '@stagelink/bridge', version: release.version, hashes: [{ alg: 'SHA-256', content: sha256Of(pathOf('stagelink-bridge')) }] });
    expect(bridge.components.find(({ name }) => name === 'mqtt').properties).toEqual([{ name: 'stagelink:delivery', value: 'bundled' }]);
    expect(sbomOf('stagelink-core').components.find(({ name }) => name === 'undici').properties).toEqual([{ name: 'stagelink:delivery', value: 'npm-dependency' }]);
  });

  it('tells in INSTALL.md how to install every artefact, by its file name', () => {
    const guide = readFileSync(join(release.dir, GUIDE), 'utf8');
    expect(guide).not.toContain('{{');
    expect(guide).toContain(`stagelink ${release.version}`);
    for (const { file } of release.layout.files) expect(guide).toContain(file);
  });
});

describe('installed with the network cut off', () => {
  it('is a real cut: core, whose dependencies come from the registry, does not install', () => {
    expect(() => installOffline(pathOf('stagelink-core'), 'core')).toThrow(/ENOTCACHED|offline/i);
  });

  it('runs the bridge: stagelink-bridge --help', () => {
    const dir = installOffline(pathOf('stagelink-bridge'), 'bridge');
    const help = execFileSync(join(dir, 'node_modules', '.bin', 'stagelink-bridge'), ['--help'], { encoding: 'utf8' });
    expect(help).toMatch(/^Usage: stagelink-bridge --server <host> --mqtt <url>/);
    expect(readdirSync(join(dir, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['@stagelink']);
  });

  it('runs the simulator up to its ready line', async () => {
    const dir = installOffline(pathOf('stagelink-simulator'), 'simulator');
    const child = spawn(join(dir, 'node_modules', '.bin', 'stagelink-sim'), ['--host', '127.0.0.1', '--port', '0', '--drive-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const ready = await new Promise((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (chunk) => {
          output += chunk;
          const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
          if (line) resolve(JSON.parse(line));
        });
        child.stderr.on('data', (chunk) => (output += chunk));
        child.once('exit', (code) => reject(new Error(`stagelink-sim exited (code ${code}) before it was ready:\n${output}`)));
      });
      expect(ready).toMatchObject({ event: 'ready', mediaServer: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    } finally {
      child.kill('SIGINT');
    }
  });

  /** Node-RED 4.1 in `userDir`, its nodes asked for the stagelink set, then stopped. */
  async function stagelinkNodeSets(userDir, act = async () => {}) {
    writeSettings(userDir, { palette: true, credentialSecret: 'release-test' });
    const red = await startNodeRed({ userDir });
    try {
      await act(red.url);
      const response = await fetch(`${red.url}/nodes`, { headers: { accept: 'application/json' } });
      return (await response.json()).filter((set) => set.module === '@stagelink/node-red');
    } finally {
      await red.stop();
    }
  }

  function expectEveryNodeLoaded(sets) {
    expect(sets.flatMap((set) => set.types).sort()).toEqual([...NODE_TYPES].sort());
    for (const set of sets) expect({ id: set.id, enabled: set.enabled, err: set.err }).toEqual({ id: set.id, enabled: true, err: undefined });
  }

  it('loads the Node-RED nodes installed with npm in the user dir', async () => {
    const userDir = installOffline(pathOf('stagelink-node-red'), 'node-red');
    expectEveryNodeLoaded(await stagelinkNodeSets(userDir));
  });

  it("loads the Node-RED nodes uploaded through the editor's Manage palette, Install from a file", async () => {
    const userDir = mkdtempSync(join(tmpdir(), 'stagelink-offline-palette-'));
    // The npm that Node-RED runs for the upload inherits these: offline, and a cache that starts empty.
    const saved = { ...process.env };
    Object.assign(process.env, offlineNpmEnv(userDir));
    try {
      const sets = await stagelinkNodeSets(userDir, async (url) => {
        const form = new FormData();
        form.append('tarball', new Blob([readFileSync(pathOf('stagelink-node-red'))]), fileOf('stagelink-node-red'));
        const response = await fetch(`${url}/nodes`, { method: 'POST', body: form, headers: { accept: 'application/json' } });
        expect(`${response.status} ${await response.text()}`).toMatch(/^200 /);
      });
      expectEveryNodeLoaded(sets);
    } finally {
      process.env = saved;
    }
  });

  it('validates the Stream Deck plugin as packed, at the release version', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stagelink-offline-plugin-'));
    for (const entry of zipEntries(readFileSync(pathOf('streamdeck')))) {
      if (entry.name.endsWith('/')) continue;
      mkdirSync(dirname(join(dir, entry.name)), { recursive: true });
      writeFileSync(join(dir, entry.name), entry.read());
    }
    const plugin = join(dir, 'com.stagelink.mediaserver.sdPlugin');
    expect(JSON.parse(readFileSync(join(plugin, 'manifest.json'), 'utf8')).Version).toBe(`${release.version}.0`);
    execFileSync(process.execPath, [STREAMDECK_CLI, 'validate', '--no-update-check', plugin], { stdio: ['ignore', 'pipe', 'pipe'] });
  });

  it('holds a self-contained Companion module at the release version', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stagelink-offline-companion-'));
    execFileSync('tar', ['-xzf', pathOf('companion'), '-C', dir]);
    const pkg = JSON.parse(readFileSync(join(dir, 'stagelink-mediaserver', 'package.json'), 'utf8'));
    const manifest = JSON.parse(readFileSync(join(dir, 'stagelink-mediaserver', 'companion', 'manifest.json'), 'utf8'));
    expect({ version: pkg.version, dependencies: pkg.dependencies, manifest: manifest.version }).toEqual({ version: release.version, dependencies: {}, manifest: release.version });
  });

  it("imports as Companion's \"Import module package\" takes it: unpacked, its manifest's entry loads the module class", async () => {
    const packed = await loadPackedModule(pathOf('companion'));
    try {
      expect(packed.manifest).toMatchObject({ id: 'stagelink-mediaserver', version: release.version, runtime: { type: 'node22' } });
      expect(typeof packed.ModuleClass).toBe('function');
      expect(packed.upgradeScripts.length).toBeGreaterThan(0);
    } finally {
      rmSync(dirname(packed.dir), { recursive: true, force: true });
    }
  });
});
