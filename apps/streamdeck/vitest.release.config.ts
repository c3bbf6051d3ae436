import { defineConfig } from 'vitest/config';

/** The checks of the packed plugin (release/*.streamDeckPlugin): run by `pnpm test:release` after `pnpm pack:plugin`. */
export default defineConfig({
  test: {
    include: ['test/packed/**/*.test.ts'],
  },
});
