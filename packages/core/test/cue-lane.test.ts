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
