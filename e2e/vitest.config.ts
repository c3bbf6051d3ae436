import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A rejection or exception nobody handled fails the test during which it happened: it would end a host process.
    setupFiles: ['../tools/test-support/no-unhandled-errors.ts'],
    testTimeout: 15000,
  },
});
