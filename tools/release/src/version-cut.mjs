// The release cut: changesets turns the pending changesets into one version for the fixed group and a CHANGELOG.md
// per package; the Stream Deck manifest, which changesets does not know, then takes that version too.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTEFACTS } from './artefacts.mjs';
import { releaseVersion } from './release-version.mjs';
import { REPO_ROOT } from './workspace.mjs';

const CHANGESET = join(REPO_ROOT, 'node_modules', '.bin', 'changeset');

/** Writes `<version>.0` (the Stream Deck's four-part version) into the plugin's manifest, keeping its formatting. */
export function syncPluginVersion(root, version) {
  const folder = ARTEFACTS.find(({ kind }) => kind === 'streamdeck').folder;
  const file = join(root, folder, 'com.stagelink.mediaserver.sdPlugin', 'manifest.json');
  const text = readFileSync(file, 'utf8');
  const updated = text.replace(/("Version":\s*")[^"]*(")/, `$1${version}.0$2`);
  if (updated === text && !text.includes(`"Version": "${version}.0"`)) throw new Error(`${file} has no "Version" to set.`);
  writeFileSync(file, updated);
}

/** Runs `changeset version` in `root`, then brings the plugin manifest along; answers the new version. */
export function cutRelease(root) {
  execFileSync(CHANGESET, ['version'], { cwd: root, stdio: 'inherit' });
  const version = releaseVersion(root);
  syncPluginVersion(root, version);
  return version;
}
