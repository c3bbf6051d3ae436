/** The module's repeated reads: a refresh asked while a read is in flight is never lost. */
import { afterEach, describe, expect, it } from 'vitest';
import { Poll } from '../src/show/poll.js';

/** A read that answers only when told: as a server whose answer is on its way when a cue lands. */
function heldReads(): { read: () => Promise<number>; started: () => number; answer: (value: number) => void } {
  const waiting: ((value: number) => void)[] = [];
  let count = 0;
  return {
    read: async () => {
      count += 1;
      return new Promise<number>((resolve) => waiting.push(resolve));
    },
    started: () => count,
    answer: (value) => waiting.shift()?.(value),
  };
}

async function until(test: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`Waited 5000 ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('Poll', () => {
  let poll: Poll<number> | undefined;

  afterEach(() => poll?.close());

  it('reads again at once after a read that was in flight when a refresh was asked, not an interval later', async () => {
    const reads = heldReads();
    // An hour between reads: only a refresh can start the second one within the test.
    poll = new Poll(reads.read, 3_600_000, () => undefined);
    poll.start();
    await until(() => reads.started() === 1, 'the first read');

    poll.refresh();
    expect(reads.started()).toBe(1);
    reads.answer(1);

    await until(() => reads.started() === 2, 'the read the refresh asked for');
    reads.answer(2);
    await until(() => poll?.value === 2, 'its answer');
  });

  it('reads at once on a refresh between reads', async () => {
    const reads = heldReads();
    poll = new Poll(reads.read, 3_600_000, () => undefined);
    poll.start();
    reads.answer(1);
    await until(() => poll?.value === 1, 'the first answer');

    poll.refresh();

    expect(reads.started()).toBe(2);
  });

  it('asks no more after a failure that stops it, until a refresh', async () => {
    let reads = 0;
    const refused = new Error('refused');
    // A read every millisecond: were it not stopped, many would follow the refusal at once.
    let refusedSeen = false;
    poll = new Poll(
      async () => {
        reads += 1;
        return reads === 1 ? Promise.reject(refused) : Promise.resolve(reads);
      },
      1,
      () => {
        if (poll?.state.kind === 'failed') refusedSeen = true;
      },
      (error) => error === refused,
    );
    poll.start();
    await until(() => refusedSeen, 'the refusal');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads).toBe(1);

    poll.refresh();

    await until(() => poll?.value !== undefined && reads > 2, 'reads going again after the refresh');
  });
});
