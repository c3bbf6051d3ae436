import { defineConfig } from 'tsdown';

// ESM for Node (the target comes from package.json's engines), with types and source maps.
export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts', 'src/testing.ts'],
  dts: true,
  sourcemap: true,
});
