import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A rejection or exception nobody handled fails the test during which it happened: it would end a host process.
    setupFiles: ['../../tools/test-support/no-unhandled-errors.ts'],
    // test/packed reads the packed plugin, so it runs after `pnpm pack:plugin` (vitest.release.config.ts).
    exclude: [...configDefaults.exclude, 'test/packed/**'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // The end-to-end files each start plugin processes and simulators: one file at a time on a 2-core machine.
    fileParallelism: false,
  },
});
