import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A rejection or exception nobody handled fails the test during which it happened: it would end a host process.
    setupFiles: ['../../tools/test-support/no-unhandled-errors.ts'],
    // node-red-node-test-helper is one runtime per process (toolchain.md): one file at a time, in forks.
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 20000,
    hookTimeout: 20000,
  },
});
