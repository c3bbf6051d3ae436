// Which packages an artefact's code is made of: esbuild's metafile for the artefact's own entry points, resolved as
// its build resolves them (workspace links, the `node` export conditions), each input file traced to the package
// it belongs to. The built files cannot say it themselves: the plugin and the Companion module are minified.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';

/** ws's optional native helpers and undici's lazily required sqlite: never part of a bundle. */
const NEVER_INSIDE = ['bufferutil', 'utf-8-validate', 'node:sqlite'];

/** The packages (name, version, license, path) whose files `artefact`'s entry points pull in, its own excluded. */
export async function bundleInputs(root, artefact) {
  const packageDir = join(root, artefact.folder);
  const entries = typeof artefact.entries === 'function' ? artefact.entries(packageDir) : artefact.entries;
  const entryPoints = entries.map((file) => join(packageDir, file));
  const { metafile } = await build({
    entryPoints,
    absWorkingDir: packageDir,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    outdir: 'out',
    external: NEVER_INSIDE,
    logLevel: 'silent',
    loader: { '.node': 'empty' },
  });
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const owner = packageOf(resolve(packageDir, input.replace(/^[a-z-]+:/, '')));
    if (owner && owner.dir !== realpathSync(packageDir)) packages.set(`${owner.name}@${owner.version}`, owner);
  }
  return [...packages.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** The nearest package.json above `file` that names a package (folders such as dist/ may hold one without a name). */
function packageOf(file) {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, version, license } = JSON.parse(readFileSync(manifest, 'utf8'));
    if (name && version) return { name, version, license: typeof license === 'string' ? license : undefined, dir: realpathSync(dir) };
  }
  return undefined;
}
