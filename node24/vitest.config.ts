import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each file starts the simulator and a plugin or a Node-RED: one at a time on a 2-core machine.
    fileParallelism: false,
  },
});
