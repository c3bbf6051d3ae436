import { defineConfig } from 'tsdown';

// Node-RED loads CommonJS and the Stream Deck bundle is ESM: ship both, each with its own types.
export default defineConfig({
  entry: ['src/index.ts', 'src/protocol.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
});
