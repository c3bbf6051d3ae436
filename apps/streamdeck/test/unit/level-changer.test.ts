import { afterEach, describe, expect, it, vi } from 'vitest';
import { SharedPoll } from '../../src/state/connection/shared-poll.js';
import { LevelChanger, type LevelChangerOptions } from '../../src/state/levels/level-changer.js';

/** A server whose answers the test releases one by one. */
function manualServer() {
  const requests: { value: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  return {
    requests,
    apply: (value: number) => new Promise<void>((resolve, reject) => requests.push({ value, resolve, reject })),
    async answer(index: number, error?: Error): Promise<void> {
      const request = requests[index];
      if (!request) throw new Error(`no request ${index}`);
      if (error) request.reject(error);
      else request.resolve();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/**
 * A changer writing to a manual server, which knows the level is `known` (polled at time 0) unless that is
 * undefined; `options` replace its quiet callbacks.
 */
function changerAt(known: number | undefined, options: Partial<LevelChangerOptions> = {}) {
  const server = manualServer();
  const changer = new LevelChanger({ apply: server.apply, onValue: () => undefined, onFailure: () => undefined, ...options });
  if (known !== undefined) changer.known(known, 0);
  return { server, changer, sent: (): number[] => server.requests.map((request) => request.value) };
}

describe('LevelChanger', () => {
  it('coalesces quick ticks: three ticks, two requests, three steps', async () => {
    const shown: number[] = [];
    const { server, changer, sent } = changerAt(0.5, { onValue: (v) => shown.push(v) });

    expect(changer.turn(1, 0.05)).toBe(true);
    changer.turn(1, 0.05);
    changer.turn(1, 0.05);
    expect(sent()).toEqual([0.55]);

    await server.answer(0);
    expect(sent()).toEqual([0.55, 0.65]);
    await server.answer(1);
    expect(server.requests).toHaveLength(2);
    expect(changer.value).toBe(0.65);
    expect(shown).toEqual([0.5, 0.55, 0.6, 0.65]);
  });

  it.each([
    ['takes a multi-tick event as that many steps', 0.2, -3, 0.01, 0.17],
    ['stays within 0 and 1', 0.98, 5, 0.01, 1],
    ['reads 32-bit floats from the server as the value they stand for', 0.8999999761581421, 1, 0.01, 0.91],
    ['moves by a fine step as exactly as by a whole one', 0.8299999833106995, 3, 0.001, 0.833],
    ['stops at the top of the range from a value off the step grid', 0.97, 1, 0.05, 1],
    ['stops at the bottom of the range from a value off the step grid', 0.03, -1, 0.05, 0],
  ])('%s: from %d, %d ticks of %d write %d', (_behaviour, known, ticks, step, written) => {
    const { changer, sent } = changerAt(known);
    changer.turn(ticks, step);
    expect(sent()).toEqual([written]);
  });

  it('moves exactly one step per tick from a value off the step grid', () => {
    const { changer, sent } = changerAt(0.8299999833106995);
    changer.turn(1, 0.05);
    changer.turn(-3, 0.05);
    expect(sent()).toEqual([0.88]);
    expect(changer.value).toBe(0.73);
  });

  it('sends nothing and says so when no value is known yet', () => {
    const { changer, sent } = changerAt(undefined);
    expect(changer.turn(1, 0.01)).toBe(false);
    expect(sent()).toEqual([]);
  });

  it('goes back to the confirmed value and reports a failed request', async () => {
    const shown: number[] = [];
    const failures: unknown[] = [];
    const { server, changer } = changerAt(0.5, { onValue: (v) => shown.push(v), onFailure: (e) => failures.push(e) });
    changer.turn(1, 0.1);
    await server.answer(0, new Error('refused'));
    expect(changer.value).toBe(0.5);
    expect(shown.at(-1)).toBe(0.5);
    expect(failures).toHaveLength(1);
  });

  it('ignores polled values while a change is under way and polls sent before it landed', async () => {
    let now = 1000;
    const { server, changer } = changerAt(0.5, { now: () => now });
    changer.turn(1, 0.1);
    changer.known(0.5, 900); // a poll answered mid-change
    expect(changer.value).toBe(0.6);
    now = 2000;
    await server.answer(0);
    changer.known(0.5, 1500); // sent before the change landed
    expect(changer.value).toBe(0.6);
    changer.known(0.7, 2500); // someone else moved it afterwards
    expect(changer.value).toBe(0.7);
  });

  it('sends ten quick ticks as at most two writes, one at a time, ending ten steps away', async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    // Counts the writes in flight around the stand-in server's own apply.
    const { server, changer } = changerAt(0.3, {
      apply: async (value) => {
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        await server.apply(value).finally(() => inFlight--);
      },
    });
    for (let tick = 0; tick < 10; tick++) changer.turn(1, 0.05);
    await server.answer(0);
    await server.answer(1);
    expect(server.requests.map((r) => r.value)).toEqual([0.35, 0.8]);
    expect(mostInFlight).toBe(1);
    expect(changer.value).toBe(0.8);
    expect(changer.busy).toBe(false);
  });

  it('takes the level to 0 on a push and back to where it was on the next', async () => {
    const { server, changer, sent } = changerAt(0.8299999833106995);
    expect(changer.toggleOff()).toBe(true);
    await server.answer(0);
    expect(changer.toggleOff()).toBe(true);
    await server.answer(1);
    expect(sent()).toEqual([0, 0.83]);
    expect(changer.value).toBe(0.83);
  });

  it('brings back the level from before the push when pushed twice before the first write lands', async () => {
    const { server, changer, sent } = changerAt(0.6);
    changer.toggleOff();
    changer.toggleOff();
    await server.answer(0);
    await server.answer(1);
    expect(sent()).toEqual([0, 0.6]);
    expect(changer.value).toBe(0.6);
  });

  it('refuses a push at 0 with no level to bring back, and sends nothing', () => {
    const { changer, sent } = changerAt(undefined);
    expect(changer.toggleOff()).toBe(false);
    changer.known(0, 0);
    expect(changer.toggleOff()).toBe(false);
    expect(sent()).toEqual([]);
  });

  it('says when writing starts and when the last write has landed, once each', async () => {
    const writing: boolean[] = [];
    const { server, changer } = changerAt(0.5, { onWriting: (w) => writing.push(w) });
    changer.turn(1, 0.1);
    changer.turn(1, 0.1);
    await server.answer(0);
    expect(writing).toEqual([true]);
    await server.answer(1);
    expect(writing).toEqual([true, false]);
    changer.turn(1, 0.1);
    await server.answer(2, new Error('refused'));
    expect(writing).toEqual([true, false, true, false]);
  });
});

describe('LevelChanger fed by a SharedPoll', () => {
  afterEach(() => vi.useRealTimers());

  it('takes a poll sent after a change landed when the wall clock has stepped back (NTP): both are timed on the monotonic clock', async () => {
    // setImmediate stays real: the manual server's answers settle on it.
    vi.useFakeTimers({ now: new Date('2026-03-29T01:00:00Z'), toFake: ['Date', 'setTimeout', 'clearTimeout', 'performance'] });
    const { server, changer } = changerAt(0.5);
    changer.turn(1, 0.1);
    await server.answer(0);
    expect(changer.value).toBe(0.6);

    // The computer's clock is set back an hour after the change landed; someone else then moves the level.
    vi.setSystemTime(Date.now() - 3_600_000);
    await vi.advanceTimersByTimeAsync(100);
    const poll = new SharedPoll(() => Promise.resolve(0.7), { intervalMs: 1000 });
    const stop = poll.watch((state) => {
      if (state.status === 'online') changer.known(state.value, state.requestedAt);
    });
    await vi.advanceTimersByTimeAsync(10);
    stop();
    poll.dispose();

    expect(changer.value).toBe(0.7);
  });
});
