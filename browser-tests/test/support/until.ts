import { vi } from 'vitest';

/** Polls `read` until it returns something other than undefined or false; fails saying what never happened. */
export function until<T>(what: string, read: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (value === undefined || value === false) throw new Error(`Still waiting for ${what} (at most ${timeoutMs} ms).`);
      return value;
    },
    { timeout: timeoutMs, interval: 100 },
  );
}
