import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A rejection or exception nobody handled fails the test during which it happened: it would end a host process.
    setupFiles: ['../../tools/test-support/no-unhandled-errors.ts'],
    testTimeout: 15000,
    // Each suite starts a real Mosquitto and a simulated session, and waits for the bridge's first values, before its
    // tests: generous, so a busy machine slows the suite down rather than failing it.
    hookTimeout: 60_000,
  },
});
