// What a release holds: one entry per artefact, with the name it has in the bundle (always carrying the version),
// where its build leaves it, and the entry points its code starts from (for the SBOM: a list of files, or a
// function of the package's folder).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** One entry per node type, as the nodes' tsdown config has them: src/nodes/<type>/<type>.ts. */
const nodeEntries = (packageDir) =>
  readdirSync(join(packageDir, 'src', 'nodes'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(({ name }) => `src/nodes/${name}/${name}.ts`);

/** Packed by `pnpm pack` as npm would publish it; `bundled`: its dependencies are inside the tarball. */
const npmPackage = (name, folder, entries, { bundled }) => ({
  id: name.replace('@', '').replace('/', '-'),
  kind: 'npm',
  name,
  folder,
  entries,
  bundled,
  fileName: (version) => `${name.replace('@', '').replace('/', '-')}-${version}.tgz`,
});

export const ARTEFACTS = [
  npmPackage('@stagelink/node-red', 'packages/node-red', nodeEntries, { bundled: true }),
  // A library for programmers: its dependencies come from the registry like any other package's.
  npmPackage('@stagelink/core', 'packages/core', ['src/index.ts', 'src/protocol.ts'], { bundled: false }),
  npmPackage('@stagelink/bridge', 'packages/bridge', ['src/index.ts', 'src/cli.ts', 'src/testing.ts'], { bundled: true }),
  npmPackage('@stagelink/simulator', 'packages/simulator', ['src/index.ts', 'src/cli.ts'], { bundled: true }),
  {
    id: 'streamdeck',
    kind: 'streamdeck',
    name: '@stagelink/streamdeck',
    folder: 'apps/streamdeck',
    entries: ['src/plugin.ts'],
    bundled: true,
    // `pnpm --filter @stagelink/streamdeck pack:plugin` writes it, from the release build.
    built: () => 'release/com.stagelink.mediaserver.streamDeckPlugin',
    fileName: (version) => `com.stagelink.mediaserver-${version}.streamDeckPlugin`,
  },
  {
    id: 'companion',
    kind: 'companion',
    name: '@stagelink/companion',
    folder: 'apps/companion',
    entries: ['src/main.ts'],
    bundled: true,
    // `companion-module-build` (the package's build) names it after the module and the package version.
    built: (version) => `stagelink-mediaserver-${version}.tgz`,
    fileName: (version) => `stagelink-mediaserver-${version}.tgz`,
  },
];

/** The bundle's folder and every file name in it, for one version. */
export function bundleLayout(version) {
  return {
    folder: `stagelink-${version}`,
    files: ARTEFACTS.map((artefact) => ({ artefact, file: artefact.fileName(version), sbom: `${artefact.fileName(version)}.cdx.json` })),
  };
}
