import { CueLane } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { CueNotSentError, CueQueue } from '../../src/state/cues/cue-queue.js';

/** A queue on a clock the test moves, and cues the test answers. */
function queue() {
  let now = 0;
  const cues = new CueQueue(new CueLane(), { maxWaitMs: 3000, requestTimeoutMs: 4000, burstGapMs: 500, now: () => now }, 'the test server');
  const answers: (() => void)[] = [];
  const cue = (): Promise<string> => new Promise<string>((resolve) => answers.push(() => resolve('sent')));
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
  /** The cue being sent answers `after` ms after it went out. */
  const answerNext = async (after: number): Promise<void> => {
    await settle();
    now += after;
    answers.shift()?.();
    await settle();
  };
  return { cues, cue, answerNext, advance: (ms: number) => (now += ms) };
}

describe('CueQueue', () => {
  it('lets each step of a burst wait one request timeout longer than the step before it', async () => {
    const { cues, cue, answerNext } = queue();
    const steps = [cues.send(cue), cues.send(cue), cues.send(cue)];
    await answerNext(3500);
    await answerNext(3500);
    await answerNext(3500);
    await expect(Promise.all(steps)).resolves.toEqual(['sent', 'sent', 'sent']);
  });

  it('refuses unsent a cue on its own that waited more than 3 s', async () => {
    const { cues, cue, answerNext, advance } = queue();
    const first = cues.send(cue);
    advance(600);
    const second = cues.send(cue).catch((error: unknown) => error);
    await answerNext(3700);
    await expect(first).resolves.toBe('sent');
    const refusal = await second;
    expect(refusal).toBeInstanceOf(CueNotSentError);
    expect(refusal).toMatchObject({ mayHaveReachedServer: false });
  });
});
