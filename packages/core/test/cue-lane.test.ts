import { afterEach, describe, expect, it, vi } from 'vitest';
import { AbortedError, ClosedError, ConnectionError, CueLane, TimeoutError, type LinkDown } from '../src/index.js';

/** A cue whose answer the test gives by hand, recording when it was sent. */
function manualCue(log: string[], name: string): { run: () => Promise<string>; answer: () => void; fail: (error: Error) => void } {
  let answer!: () => void;
  let fail!: (error: Error) => void;
  const settled = new Promise<string>((resolve, reject) => {
    answer = () => resolve(name);
    fail = reject;
  });
  return {
    run: () => {
      log.push(name);
      return settled;
    },
    answer: () => answer(),
    fail: (error) => fail(error),
  };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('CueLane', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends cues one at a time, in the order they were given', async () => {
    const lane = new CueLane();
    const log: string[] = [];
    const gotoTrack = manualCue(log, 'gototrack');
    const play = manualCue(log, 'play');
    const first = lane.send(gotoTrack.run);
    const second = lane.send(play.run);
    await flush();
    expect(log).toEqual(['gototrack']);
    expect(lane.size).toBe(2);

    gotoTrack.answer();
    await expect(first).resolves.toBe('gototrack');
    await flush();
    expect(log).toEqual(['gototrack', 'play']);
    play.answer();
    await expect(second).resolves.toBe('play');
    expect(lane.size).toBe(0);
  });

  it('sends the next cue after one that failed, and after one that threw instead of rejecting', async () => {
    const lane = new CueLane();
    const refused = lane.send(() => Promise.reject(new Error('Track not found')));
    const thrown = lane.send(() => {
      throw new Error('bad cue');
    });
    const sent = lane.send(() => Promise.resolve('sent'));
    await expect(refused).rejects.toThrow('Track not found');
    await expect(thrown).rejects.toThrow('bad cue');
    await expect(sent).resolves.toBe('sent');
  });

  it('refuses at once a cue given while the server is known down and cues are still ahead of it', async () => {
    const link: { down?: LinkDown } = {};
    const lane = new CueLane({ linkDown: () => link.down, name: 'http://10.0.0.5' });
    const log: string[] = [];
    const slow = manualCue(log, 'slow');
    const first = lane.send(slow.run);
    const refusal = new ConnectionError('connect ECONNREFUSED');
    link.down = { since: new Date(), reason: refusal.message, error: refusal };

    const refused = lane.send(() => Promise.resolve('late'));
    await expect(refused).rejects.toBeInstanceOf(ConnectionError);
    await expect(refused).rejects.toThrow(/http:\/\/10\.0\.0\.5 was not sent: .*ECONNREFUSED/);
    expect((await refused.catch((error: unknown) => error)) as ConnectionError).toMatchObject({ mayHaveReachedServer: false, cause: refusal });

    slow.fail(new Error('timed out'));
    await expect(first).rejects.toThrow('timed out');
    expect(log).toEqual(['slow']);
  });

  it('refuses unsent a cue that waited longer than maxWaitMs for the ones ahead', async () => {
    vi.useFakeTimers();
    const lane = new CueLane({ maxWaitMs: 1000 });
    const log: string[] = [];
    const slow = manualCue(log, 'slow');
    const first = lane.send(slow.run);
    const late = lane.send(() => Promise.resolve(log.push('late')));
    const lateOutcome = late.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1500);
    slow.answer();
    await expect(first).resolves.toBe('slow');
    expect(await lateOutcome).toBeInstanceOf(TimeoutError);
    expect(await lateOutcome).toMatchObject({ message: expect.stringMatching(/waited 1500 ms .* never sent late/) as unknown });
    expect(log).toEqual(['slow']);
  });

  describe('with a burst budget', () => {
    /** A lane as a desk sets it: 3 s to wait, 4 s more per step ahead in a burst, steps at most 0.5 s apart. */
    const burstLane = (): CueLane => new CueLane({ maxWaitMs: 3000, stepAllowanceMs: 4000, burstGapMs: 500, name: 'http://10.0.0.5' });
    /** A cue that answers `ms` after it went out. */
    const slowCue = (log: string[], name: string, ms: number) => (): Promise<string> => {
      log.push(name);
      return new Promise((resolve) => setTimeout(() => resolve(name), ms));
    };

    it('lets each step of a burst wait one step allowance longer than the step before it', async () => {
      vi.useFakeTimers();
      const lane = burstLane();
      const log: string[] = [];
      // Three steps given at once to a director answering each 3.5 s later: the third waits 7 s for its turn.
      const steps = Promise.all(['engage', 'gototrack', 'play'].map((name) => lane.send(slowCue(log, name, 3500)).catch((error: unknown) => error)));
      await vi.advanceTimersByTimeAsync(3 * 3500);
      expect(await steps).toEqual(['engage', 'gototrack', 'play']);
      expect(log).toEqual(['engage', 'gototrack', 'play']);
    });

    it('takes cues given a little apart as one burst, each within the gap of the one before', async () => {
      vi.useFakeTimers();
      const lane = burstLane();
      const log: string[] = [];
      const first = lane.send(slowCue(log, 'first', 3500));
      await vi.advanceTimersByTimeAsync(400);
      const second = lane.send(slowCue(log, 'second', 3500));
      await vi.advanceTimersByTimeAsync(400);
      const third = lane.send(slowCue(log, 'third', 3500));
      await vi.advanceTimersByTimeAsync(3 * 3500);
      await expect(Promise.all([first, second, third])).resolves.toEqual(['first', 'second', 'third']);
    });

    it('keeps the flat budget for a cue given on its own behind a burst, and refuses it unsent', async () => {
      vi.useFakeTimers();
      const lane = burstLane();
      const log: string[] = [];
      const burst = Promise.all(['gototrack', 'play'].map((name) => lane.send(slowCue(log, name, 3500))));
      await vi.advanceTimersByTimeAsync(1500);
      const lone = lane.send(slowCue(log, 'stop', 100)).catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(2 * 3500);
      await expect(burst).resolves.toEqual(['gototrack', 'play']);
      const refusal = await lone;
      expect(refusal).toBeInstanceOf(TimeoutError);
      expect(refusal).toMatchObject({ mayHaveReachedServer: false, timeoutMs: 3000, message: expect.stringMatching(/http:\/\/10\.0\.0\.5 was not sent: it waited 5500 ms .*at most 3000 ms/) as unknown });
      expect(log).toEqual(['gototrack', 'play']);
    });

    it('refuses unsent a step that waited longer than its burst budget', async () => {
      vi.useFakeTimers();
      const lane = burstLane();
      const log: string[] = [];
      // The first step takes 7.5 s (a toggle reads, then sends): the second may wait 3 + 4 s, not more.
      const first = lane.send(slowCue(log, 'toggle', 7500));
      const second = lane.send(slowCue(log, 'play', 100)).catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(8000);
      await expect(first).resolves.toBe('toggle');
      expect(await second).toMatchObject({ mayHaveReachedServer: false, timeoutMs: 7000 });
      expect(log).toEqual(['toggle']);
    });

    it('counts no step for a cue refused at once while the server is known down', async () => {
      vi.useFakeTimers();
      const link: { down?: LinkDown } = {};
      const lane = new CueLane({ linkDown: () => link.down, maxWaitMs: 3000, stepAllowanceMs: 4000, burstGapMs: 500 });
      const log: string[] = [];
      const first = lane.send(slowCue(log, 'first', 3500));
      const refusal = new ConnectionError('connect ECONNREFUSED');
      link.down = { since: new Date(), reason: refusal.message, error: refusal };
      await expect(lane.send(slowCue(log, 'refused', 100))).rejects.toMatchObject({ mayHaveReachedServer: false });
      link.down = undefined;
      const second = lane.send(slowCue(log, 'second', 8000));
      // The third step of the burst, not the fourth: 3 + 2 × 4 s, and it waits 11.5 s.
      const third = lane.send(slowCue(log, 'third', 100)).catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(12_000);
      await expect(Promise.all([first, second])).resolves.toEqual(['first', 'second']);
      expect(await third).toMatchObject({ mayHaveReachedServer: false, timeoutMs: 11_000 });
      expect(log).toEqual(['first', 'second']);
    });
  });

  it('takes a waiting cue out when its signal aborts, and leaves the others in order', async () => {
    const lane = new CueLane();
    const log: string[] = [];
    const head = manualCue(log, 'head');
    const controller = new AbortController();
    void lane.send(head.run);
    const cancelled = lane.send(() => Promise.resolve(log.push('cancelled')), { signal: controller.signal });
    const kept = lane.send(() => Promise.resolve(log.push('kept')));
    controller.abort();
    await expect(cancelled).rejects.toBeInstanceOf(AbortedError);
    head.answer();
    await kept;
    expect(log).toEqual(['head', 'kept']);
  });

  it('refuses the waiting cues and any new one once closed, and lets the one being sent settle', async () => {
    const lane = new CueLane();
    const log: string[] = [];
    const head = manualCue(log, 'head');
    const sending = lane.send(head.run);
    const waiting = lane.send(() => Promise.resolve('never'));
    await flush();
    lane.close();
    lane.close();
    await expect(waiting).rejects.toBeInstanceOf(ClosedError);
    await expect(lane.send(() => Promise.resolve('after'))).rejects.toBeInstanceOf(ClosedError);
    head.answer();
    await expect(sending).resolves.toBe('head');
    expect(log).toEqual(['head']);
  });
});
