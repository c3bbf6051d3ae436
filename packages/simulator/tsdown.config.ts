import { defineConfig } from 'tsdown';

/** ws's optional native helpers: ws runs without them. */
const NATIVE_HELPERS = ['bufferutil', 'utf-8-validate'];

/**
 * Core's types are written into the simulator's own; other libraries' declarations are left as imports (their
 * CommonJS-style `export =` cannot be bundled, and the simulator's API names none of them).
 */
const isLibraryType = (id: string, importer: string | undefined): boolean =>
  /\.d\.[cm]?ts$/.test(importer ?? '') && !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('@stagelink/');

// ESM for Node (the target comes from package.json's engines), with types and source maps. Self-contained: core,
// ws and bonjour-service are bundled in (nothing is in `dependencies`), so `stagelink-sim` installs with the network
// cut off, for a rehearsal on a show network.
export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  dts: true,
  sourcemap: true,
  deps: { neverBundle: (id, importer) => NATIVE_HELPERS.includes(id) || isLibraryType(id, importer), onlyBundle: false },
});
