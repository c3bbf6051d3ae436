import { setTimeout as sleep } from 'node:timers/promises';

export { sleep };

/** Polls `check` every `everyMs` until it returns something other than undefined/false, or `timeoutMs` passes. */
export async function waitUntil<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs: number, everyMs = 100): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined && found !== false) return found;
    if (Date.now() >= deadline) return undefined;
    await sleep(everyMs);
  }
}

/** Runs `task` over `items`, at most `limit` at a time, in order of the items; resolves when all are done. */
export async function inPool<T>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
