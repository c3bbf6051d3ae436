import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SharedPoll, StaleValueError, type PollState } from '../../src/state/connection/shared-poll.js';
import { settle } from './stubs.js';

describe('SharedPoll', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('polls only while watched, once per interval for any number of watchers', async () => {
    const fetch = vi.fn(() => Promise.resolve('value'));
    const poll = new SharedPoll(fetch, { intervalMs: 3000 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetch).not.toHaveBeenCalled();

    const stops = [poll.watch(() => undefined), poll.watch(() => undefined), poll.watch(() => undefined)];
    await vi.advanceTimersByTimeAsync(9_100);
    expect(fetch).toHaveBeenCalledTimes(4); // at once, then after 3, 6 and 9 s

    for (const stop of stops) stop();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('keeps one request in flight and runs a refresh asked for meanwhile right after it', async () => {
    let answer!: (value: string) => void;
    const fetch = vi.fn(() => new Promise<string>((resolve) => (answer = resolve)));
    const poll = new SharedPoll(fetch, { intervalMs: 3000 });
    poll.watch(() => undefined);
    poll.refresh();
    poll.refresh();
    expect(fetch).toHaveBeenCalledTimes(1);
    answer('first');
    await settle();
    expect(fetch).toHaveBeenCalledTimes(2);
    poll.dispose();
  });

  it('tells watchers offline when the request fails, and online again when it answers', async () => {
    let fail = true;
    const poll = new SharedPoll(() => (fail ? Promise.reject(new Error('refused')) : Promise.resolve('ok')), { intervalMs: 1000 });
    const states: PollState<string>[] = [];
    poll.watch((state) => states.push(state));
    await vi.advanceTimersByTimeAsync(10);
    fail = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(states.map((state) => state.status)).toEqual(['connecting', 'offline', 'online']);
    poll.dispose();
  });

  it('stops calling a value current when the server goes silent', async () => {
    let calls = 0;
    const poll = new SharedPoll(() => (calls++ === 0 ? Promise.resolve('ok') : new Promise<string>(() => undefined)), {
      intervalMs: 1000,
      staleAfterMs: 5000,
    });
    const states: PollState<string>[] = [];
    poll.watch((state) => states.push(state));
    await vi.advanceTimersByTimeAsync(5100);
    const last = states.at(-1);
    expect(last?.status).toBe('offline');
    expect(last?.status === 'offline' && last.error).toBeInstanceOf(StaleValueError);
    poll.dispose();
  });

  it('does not hand a new watcher a value from before a pause', async () => {
    const poll = new SharedPoll(() => Promise.resolve('old'), { intervalMs: 1000 });
    const stop = poll.watch(() => undefined);
    await vi.advanceTimersByTimeAsync(10);
    stop();
    const states: PollState<string>[] = [];
    poll.watch((state) => states.push(state));
    expect(states[0]?.status).toBe('connecting');
    poll.dispose();
  });

  it('asks again at once on restart, giving up a request that hangs, and ignores its late answer', async () => {
    const answers: ((value: string) => void)[] = [];
    const signals: AbortSignal[] = [];
    const fetch = vi.fn((signal: AbortSignal) => {
      signals.push(signal);
      return new Promise<string>((resolve) => answers.push(resolve));
    });
    const poll = new SharedPoll(fetch, { intervalMs: 3000 });
    const values: string[] = [];
    poll.watch((state) => state.status === 'online' && values.push(state.value));
    expect(fetch).toHaveBeenCalledTimes(1);

    poll.restart();
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(signals[0]?.aborted).toBe(true);
    answers[0]?.('from before the sleep');
    answers[1]?.('fresh');
    await settle();
    expect(values).toEqual(['fresh']);
    // Back to the usual pace afterwards: the next poll one interval after the answer.
    await vi.advanceTimersByTimeAsync(2900);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(200);
    expect(fetch).toHaveBeenCalledTimes(3);
    poll.dispose();
  });

  it('does not start polling on restart while nobody watches', () => {
    const fetch = vi.fn(() => Promise.resolve('ok'));
    const poll = new SharedPoll(fetch, { intervalMs: 1000 });
    poll.restart();
    expect(fetch).not.toHaveBeenCalled();
    poll.dispose();
  });

  it('survives a watcher that throws', async () => {
    const errors: unknown[] = [];
    const poll = new SharedPoll(() => Promise.resolve('ok'), { intervalMs: 1000, onListenerError: (error) => errors.push(error) });
    const seen: string[] = [];
    poll.watch((state) => {
      if (state.status === 'online') throw new Error('bad key');
    });
    poll.watch((state) => seen.push(state.status));
    await vi.advanceTimersByTimeAsync(10);
    expect(seen).toContain('online');
    expect(errors).toHaveLength(1);
    poll.dispose();
  });
});
