import { vi } from 'vitest';

/** Retries `check` until it passes (returns without throwing), as vitest's waitFor does; rejects after `timeoutMs`. */
export function eventually<T>(check: () => T | Promise<T>, timeoutMs = 8000): Promise<T> {
  return vi.waitFor(check, { timeout: timeoutMs, interval: 50 });
}
