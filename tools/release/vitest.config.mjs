import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.mjs'],
    // The bundle is packed once and installed several times: npm and Node-RED need more than the default 5 s.
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
