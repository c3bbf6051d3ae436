// Assembles release/stagelink-<version>/ from what the builds left: the npm tarballs (packed here), the Stream Deck
// plugin, the Companion module, a CycloneDX SBOM per artefact, INSTALL.md and SHA256SUMS over all of them.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleLayout } from './artefacts.mjs';
import { bundleInputs } from './bundle-inputs.mjs';
import { sha256Of, sha256Sums } from './checksums.mjs';
import { installGuide } from './install-guide.mjs';
import { releaseVersion } from './release-version.mjs';
import { cycloneDx } from './sbom.mjs';
import { manifestOf, readJson } from './workspace.mjs';

export const SUMS = 'SHA256SUMS';
export const GUIDE = 'INSTALL.md';

/** `pnpm pack` of a workspace package into `dir`: the tarball npm would publish, workspace ranges made real. */
function npmPack(root, artefact, dir) {
  const before = new Set(readdirSync(dir));
  execFileSync('pnpm', ['pack', '--pack-destination', dir], { cwd: join(root, artefact.folder), stdio: ['ignore', 'ignore', 'inherit'] });
  const written = readdirSync(dir).filter((file) => !before.has(file));
  if (written.length !== 1) throw new Error(`pnpm pack of ${artefact.name} wrote ${written.length} files (${written.join(', ')}).`);
  return written[0];
}

/** The built file of the plugin or the Companion module, copied in under its bundle name. */
function copyBuilt(root, artefact, version, dir, file) {
  const source = join(root, artefact.folder, artefact.built(version));
  if (!existsSync(source)) throw new Error(`${source} is missing: build ${artefact.name} first (\`pnpm release:bundle\` does).`);
  copyFileSync(source, join(dir, file));
}

/** The plugin is packed from its manifest: a manifest left at another version would ship under a wrong name. */
function checkPluginManifest(root, artefact, version) {
  const manifest = join(root, artefact.folder, 'com.stagelink.mediaserver.sdPlugin', 'manifest.json');
  const { Version } = readJson(manifest);
  if (Version !== `${version}.0`) throw new Error(`${manifest} says Version ${Version}, the release is ${version}: cut it with \`pnpm release:version\`.`);
}

function commitTime(root) {
  return execFileSync('git', ['log', '-1', '--format=%cI'], { cwd: root, encoding: 'utf8' }).trim();
}

/**
 * Writes `<outDir>/stagelink-<version>/` and resolves with its path and file names. The packages must be built,
 * the plugin packed (`pnpm --filter @stagelink/streamdeck pack:plugin`) and the Companion module built.
 */
export async function assembleRelease({ root, outDir, log = () => {} }) {
  const version = releaseVersion(root);
  const layout = bundleLayout(version);
  const dir = join(outDir, layout.folder);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const timestamp = commitTime(root);
  const tool = manifestOf(root, 'tools/release');
  for (const { artefact, file, sbom } of layout.files) {
    if (artefact.kind === 'npm') {
      const packed = npmPack(root, artefact, dir);
      if (packed !== file) throw new Error(`pnpm pack of ${artefact.name} wrote ${packed}, expected ${file}.`);
    } else {
      if (artefact.kind === 'streamdeck') checkPluginManifest(root, artefact, version);
      copyBuilt(root, artefact, version, dir, file);
    }
    const { license } = manifestOf(root, artefact.folder);
    const inside = await bundleInputs(root, artefact);
    const document = cycloneDx({
      artefact: { kind: artefact.kind, name: artefact.name, version, license, file, sha256: sha256Of(join(dir, file)) },
      inside,
      bundled: artefact.bundled,
      timestamp,
      tool,
    });
    writeFileSync(join(dir, sbom), `${JSON.stringify(document, null, 2)}\n`);
    log(`${file} (${inside.length} packages ${artefact.bundled ? 'inside' : 'from the registry'})`);
  }
  writeFileSync(join(dir, GUIDE), installGuide(version, layout));
  const files = [...layout.files.flatMap(({ file, sbom }) => [file, sbom]), GUIDE];
  writeFileSync(join(dir, SUMS), sha256Sums(dir, files));
  return { dir, version, layout, files: [...files, SUMS] };
}
