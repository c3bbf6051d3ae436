/** Resolves with the settled outcome of `promise`, or `timeout` when it has not settled within `ms`. */
export type Settled<T> = { kind: 'resolved'; value: T } | { kind: 'rejected'; error: unknown } | { kind: 'timeout' };

export async function settleWithin<T>(promise: Promise<T>, ms: number): Promise<Settled<T>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Settled<T>>((resolve) => (timer = setTimeout(() => resolve({ kind: 'timeout' }), ms)));
  try {
    return await Promise.race([
      promise.then(
        (value): Settled<T> => ({ kind: 'resolved', value }),
        (error: unknown): Settled<T> => ({ kind: 'rejected', error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
