import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A rejection or exception nobody handled fails the test during which it happened: it would end a host process.
    setupFiles: ['../../tools/test-support/no-unhandled-errors.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // The end-to-end files each start simulators and a module instance: one file at a time on a 2-core machine.
    fileParallelism: false,
  },
});
