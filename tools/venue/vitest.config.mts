import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Node 20 has WebSocket only behind this flag: the start script's test listens to the editor's debug sidebar.
    execArgv: ['--experimental-websocket'],
    testTimeout: 20000,
    hookTimeout: 20000,
  },
});
