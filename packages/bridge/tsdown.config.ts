import { defineConfig } from 'tsdown';

// ESM for Node (the target comes from package.json's engines), with types and source maps. Self-contained: core,
// mqtt and what they use are bundled in (nothing is in `dependencies`), so the package installs with the network
// cut off, as a venue's show network is. ws's optional native helpers stay out: ws runs without them.
export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts', 'src/testing.ts'],
  dts: true,
  sourcemap: true,
  deps: { neverBundle: ['bufferutil', 'utf-8-validate'], onlyBundle: false },
});
