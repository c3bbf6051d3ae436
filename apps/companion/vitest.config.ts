import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // The end-to-end files each start simulators and a module instance: one file at a time on a 2-core machine.
    fileParallelism: false,
  },
});
