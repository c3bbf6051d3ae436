import { EventEmitter } from 'node:events';
import { ConnectionError, HttpError, TimeoutError } from '@stagelink/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROBE_EVERY_MS, type ServerState, ServerStateWatch } from '../src/shared/server-state.js';

/**
 * A client with only what the watch uses: `status/session` answers as the test says, the live socket stays
 * offline (so the periodic probe is what tells), and the director is never known.
 */
class StubClient extends EventEmitter {
  readonly live = Object.assign(new EventEmitter(), { status: 'offline' as const });
  asked = 0;
  answer: () => Promise<unknown> = () => Promise.resolve({});
  readonly status = {
    session: (): Promise<unknown> => {
      this.asked += 1;
      return this.answer();
    },
  };
  director = undefined;
}

const watchOf = (client: StubClient): ServerStateWatch => new ServerStateWatch(client as unknown as ConstructorParameters<typeof ServerStateWatch>[0]);

/** Lets the probe's promise chain settle, without moving the clock. */
const settle = async (): Promise<void> => {
  await vi.advanceTimersByTimeAsync(0);
};

describe('ServerStateWatch', () => {
  // Timers only: a real setImmediate lets Node report a rejection nobody handled.
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] }));
  afterEach(() => vi.useRealTimers());

  it('asks again every PROBE_EVERY_MS while watched, and leaves no timer or listener once nobody watches', async () => {
    const client = new StubClient();
    const watch = watchOf(client);
    const shown: ServerState[] = [];
    const unwatch = watch.watch((state) => shown.push(state));
    await settle();
    expect(client.asked).toBe(1);
    expect(shown).toEqual([{ kind: 'connecting' }, { kind: 'connected', director: undefined }]);
    for (const asked of [2, 3]) {
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
      expect(client.asked).toBe(asked);
    }
    unwatch();
    expect(vi.getTimerCount()).toBe(0);
    expect(client.live.listenerCount('status') + client.listenerCount('director')).toBe(0);
    await vi.advanceTimersByTimeAsync(3 * PROBE_EVERY_MS);
    expect(client.asked).toBe(3);
  });

  it('leaves no timer when closed while a probe is on its way', async () => {
    const client = new StubClient();
    let signal: AbortSignal | undefined;
    client.status.session = (options?: { signal?: AbortSignal }): Promise<unknown> => {
      signal = options?.signal;
      return new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    };
    const watch = watchOf(client);
    watch.watch(() => undefined);
    watch.close();
    await settle();
    expect(signal?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    watch.close();
  });

  it('shows a new watcher "connecting" rather than what was known before everyone stopped watching', async () => {
    const client = new StubClient();
    client.answer = () => Promise.reject(new ConnectionError('Could not reach 10.0.0.5'));
    const watch = watchOf(client);
    const unwatch = watch.watch(() => undefined);
    await settle();
    unwatch();
    const shown: ServerState[] = [];
    watch.watch((state) => shown.push(state));
    expect(shown).toEqual([{ kind: 'connecting' }]);
    await settle();
    expect(shown).toEqual([{ kind: 'connecting' }, { kind: 'unreachable' }]);
    watch.close();
  });

  it('goes from connecting to unreachable while the server is silent, and to connected when it answers again', async () => {
    const client = new StubClient();
    let reachable = false;
    client.answer = () => (reachable ? Promise.resolve({}) : Promise.reject(new ConnectionError('Could not reach 10.0.0.5')));
    const watch = watchOf(client);
    const shown: ServerState[] = [];
    watch.watch((state) => shown.push(state));
    await settle();
    // Two probes in a row without an answer, the second asked at once.
    expect(client.asked).toBe(2);
    expect(shown).toEqual([{ kind: 'connecting' }, { kind: 'unreachable' }]);
    // Silence again changes nothing: one word per change.
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
    expect(client.asked).toBe(3);
    expect(shown).toHaveLength(2);
    reachable = true;
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
    expect(shown).toEqual([{ kind: 'connecting' }, { kind: 'unreachable' }, { kind: 'connected', director: undefined }]);
    watch.close();
  });

  it('stays connected through one probe a busy director answers too late, asking again at once', async () => {
    const client = new StubClient();
    const late = () => Promise.reject(new TimeoutError('No answer within 5000 ms', 5000));
    const answers = [() => Promise.resolve({}), late];
    client.answer = () => (answers.shift() ?? (() => Promise.resolve({})))();
    const watch = watchOf(client);
    const shown: ServerState[] = [];
    watch.watch((state) => shown.push(state));
    await settle();
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
    expect(client.asked).toBe(3);
    expect(shown).toEqual([{ kind: 'connecting' }, { kind: 'connected', director: undefined }]);
    watch.close();
  });

  it('takes a refusal as connected: only silence is unreachable', async () => {
    const client = new StubClient();
    client.answer = () => Promise.reject(new HttpError('answered 500', 500, undefined));
    const watch = watchOf(client);
    const shown: ServerState[] = [];
    watch.watch((state) => shown.push(state));
    await settle();
    expect(shown).toEqual([{ kind: 'connecting' }, { kind: 'connected', director: undefined }]);
    watch.close();
  });

  it('does not keep an answer that came after everyone stopped watching for the next watcher', async () => {
    const client = new StubClient();
    const watch = watchOf(client);
    // The answer is on its way when the last watcher goes.
    watch.watch(() => undefined)();
    await settle();
    const shown: ServerState[] = [];
    watch.watch((state) => shown.push(state));
    expect(shown).toEqual([{ kind: 'connecting' }]);
    watch.close();
  });

  it('keeps telling the other watchers, and raises nothing in the process, when one watcher throws', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const client = new StubClient();
      const watch = watchOf(client);
      const shown: ServerState[] = [];
      watch.watch(() => {
        throw new Error('status failed');
      });
      watch.watch((state) => shown.push(state));
      await settle();
      await new Promise((resolve) => setImmediate(resolve));
      expect(shown.at(-1)).toEqual({ kind: 'connected', director: undefined });
      // The watch still asks on schedule.
      await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
      expect(client.asked).toBe(2);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      watch.close();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
