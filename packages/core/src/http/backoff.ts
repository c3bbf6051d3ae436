/**
 * Full-jitter exponential back-off: a random wait between 0 and min(cap, base * 2^attempt). Spreads the retries
 * of many clients that lost the same server at the same moment.
 */
export function fullJitter(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/** What `sleep` can be cut short by: a source that says `abort` once, its reason set by then (see CallDeadline). */
export interface AbortSource {
  readonly reason: Error | undefined;
  once(event: 'abort', listener: () => void): unknown;
  off(event: 'abort', listener: () => void): unknown;
}

/** Resolves after `ms`, or rejects with the source's reason as soon as it aborts. Leaves no timer behind. */
export function sleep(ms: number, abortSource: AbortSource): Promise<void> {
  return new Promise((resolve, reject) => {
    if (abortSource.reason) {
      reject(abortSource.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      if (abortSource.reason) reject(abortSource.reason);
    };
    const timer = setTimeout(() => {
      abortSource.off('abort', onAbort);
      resolve();
    }, ms);
    abortSource.once('abort', onAbort);
  });
}
