import { afterAll, afterEach, beforeEach } from 'vitest';

/**
 * A vitest set-up file (`setupFiles`) for every suite that runs stagelink beside someone else's code: a promise
 * rejected with nobody to catch it, or an exception thrown from a timer, would end Node-RED, the Stream Deck
 * plugin, Companion's module host or the bridge. Each one fails the test during which it happened, named, and one
 * that comes after the last test fails the file: a timer-driven path that rejects unhandled never passes quietly.
 */

interface Unhandled {
  kind: 'unhandled rejection' | 'uncaught exception';
  error: unknown;
  during: string;
}

const seen: Unhandled[] = [];
let during = 'the set-up of the file';

process.on('unhandledRejection', (error) => seen.push({ kind: 'unhandled rejection', error, during }));
// The monitor sees the exception without changing what the process does with it.
process.on('uncaughtExceptionMonitor', (error) => seen.push({ kind: 'uncaught exception', error, during }));

// Destructured: vitest reads a hook's fixtures from its first parameter, and refuses a plain `context` in files whose
// tests use `test.extend` fixtures.
beforeEach(({ task }) => {
  during = `"${task.name}"`;
});

afterEach(() => {
  failOnSeen();
  during = 'after the last test';
});

afterAll(async () => {
  // A timer that fires right after the last test is still this file's.
  await new Promise((resolve) => setTimeout(resolve, 50));
  failOnSeen();
});

function failOnSeen(): void {
  const found = seen.splice(0);
  if (found.length === 0) return;
  const lines = found.map(({ kind, error, during: when }) => `${kind} during ${when}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  throw new Error(`Nothing may reject or throw with nobody to handle it (it would end the host process):\n${lines.join('\n')}`);
}
