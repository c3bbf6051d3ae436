import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  dts: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
});
