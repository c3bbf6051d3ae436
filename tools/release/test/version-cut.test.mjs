// The release cut as `pnpm release:version` makes it, in a copy of the repository's manifests and changesets (the
// repository's own pending changesets stay untouched) with one pending change of the test's own, and the bundle
// names that follow from it.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ARTEFACTS, bundleLayout } from '../src/artefacts.mjs';
import { releaseVersion } from '../src/release-version.mjs';
import { cutRelease } from '../src/version-cut.mjs';
import { REPO_ROOT, manifestOf, readJson } from '../src/workspace.mjs';

const PLUGIN_MANIFEST = 'apps/streamdeck/com.stagelink.mediaserver.sdPlugin/manifest.json';

/** A git repository holding what `changeset version` reads and writes: every manifest, the changesets, the plugin manifest. */
function copyOfRepository() {
  const dir = mkdtempSync(join(tmpdir(), 'stagelink-cut-'));
  const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', 'package.json', '*/package.json', 'pnpm-workspace.yaml', '.changeset', PLUGIN_MANIFEST], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  for (const file of tracked.split('\n').filter((line) => line && !line.includes('node_modules/'))) {
    cpSync(join(REPO_ROOT, file), join(dir, file), { recursive: true });
  }
  // One pending change of its own, so there is always something to cut, whether or not the repository has any.
  writeFileSync(join(dir, '.changeset/release-test.md'), '---\n"@stagelink/core": patch\n---\n\nA change for the release test.\n');
  const git = (...args) => execFileSync('git', ['-c', 'user.name=release test', '-c', 'user.email=release@test.invalid', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'manifests');
  return dir;
}

describe('the release cut', () => {
  let dir;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives every package of the bundle the one new version, the plugin manifest too, and names the bundle after it', () => {
    dir = copyOfRepository();
    const before = releaseVersion(dir);
    const version = cutRelease(dir);

    expect(version).not.toBe(before);
    for (const { name, folder } of ARTEFACTS) {
      expect(`${name} ${manifestOf(dir, folder).version}`).toBe(`${name} ${version}`);
      expect(readFileSync(join(dir, folder, 'CHANGELOG.md'), 'utf8')).toContain(`## ${version}`);
    }
    expect(readJson(join(dir, PLUGIN_MANIFEST)).Version).toBe(`${version}.0`);

    const layout = bundleLayout(version);
    expect(layout.folder).toBe(`stagelink-${version}`);
    for (const { file, sbom } of layout.files) {
      expect(file).toContain(`-${version}.`);
      expect(sbom).toBe(`${file}.cdx.json`);
    }
    // What the builds write carries the version too: the Companion module is named from its package.json.
    const companion = ARTEFACTS.find(({ kind }) => kind === 'companion');
    expect(companion.built(manifestOf(dir, companion.folder).version)).toBe(`stagelink-mediaserver-${version}.tgz`);
  }, 60_000);

  it('refuses to name a bundle whose packages carry different versions', () => {
    dir = copyOfRepository();
    const bridge = join(dir, 'packages/bridge/package.json');
    writeFileSync(bridge, JSON.stringify({ ...readJson(bridge), version: '9.9.9' }));
    expect(() => releaseVersion(dir)).toThrow(/different versions.*@stagelink\/bridge 9\.9\.9/);
  });

  it('refuses a package of the bundle that is outside the changesets fixed group', () => {
    dir = copyOfRepository();
    const config = join(dir, '.changeset/config.json');
    const { fixed, ...rest } = readJson(config);
    writeFileSync(config, JSON.stringify({ ...rest, fixed: [fixed[0].filter((name) => name !== '@stagelink/simulator')] }));
    expect(() => releaseVersion(dir)).toThrow(/@stagelink\/simulator not in the changesets fixed group/);
  });
});
