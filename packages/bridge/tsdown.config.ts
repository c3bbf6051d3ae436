import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts', 'src/testing.ts'],
  format: ['esm'],
  dts: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
});
