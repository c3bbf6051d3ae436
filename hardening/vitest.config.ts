import { defineConfig } from 'vitest/config';

/** Marks the failures the suite's own tests cause on purpose, to prove they are counted. */
export const DELIBERATE = 'deliberate failure in a hardening self-test';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The crash counter's test leaves a rejection unhandled on purpose; any other still fails the run.
    onUnhandledError: (error) => !error.message.includes(DELIBERATE),
  },
});
