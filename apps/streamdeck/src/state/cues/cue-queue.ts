/**
 * The cues of one server as the keys give them: through core's lane (one at a time, in the order given), each with a
 * waiting budget timed on a monotonic clock, so a computer's clock set or woken from sleep never refuses or keeps a
 * cue. A cue on its own may wait `maxWaitMs` for the cues ahead of it; at the desk a late cue is worse than a refused
 * one. The steps of a multi-action arrive at once and each waits for the one before it, which may take a whole
 * request timeout on a slow director: cues given within `burstGapMs` of each other are one burst, and each step of
 * a burst may wait one request timeout longer than the step before it. A cue over its budget is refused unsent with
 * CueNotSentError.
 */
import { type CueLane, TimeoutError } from '@stagelink/core';

export interface CueQueueOptions {
  /** How long a cue may wait for the cues ahead of it. */
  maxWaitMs: number;
  /** The timeout of one request: what each step ahead of a cue in its burst adds to the cue's budget. */
  requestTimeoutMs: number;
  /** Cues given at most this far apart are one burst. */
  burstGapMs: number;
  /** A monotonic clock in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** A cue refused unsent: it waited longer than its budget for the cues ahead of it. */
export class CueNotSentError extends TimeoutError {
  constructor(message: string, timeoutMs: number) {
    super(message, timeoutMs, undefined, { mayHaveReachedServer: false });
  }
}

interface Burst {
  /** Steps given so far. */
  steps: number;
  lastGivenAt: number;
}

export class CueQueue {
  #burst: Burst | undefined;
  readonly #now: () => number;

  constructor(
    private readonly lane: CueLane,
    private readonly options: CueQueueOptions,
    /** Names the server in the refusal: its address. */
    private readonly name: string,
  ) {
    this.#now = options.now ?? (() => performance.now());
  }

  /** Sends `cue` once the cues given before it have settled, unless it waited longer than its budget. */
  send<T>(cue: () => Promise<T>): Promise<T> {
    const givenAt = this.#now();
    const burst = this.#burst && givenAt - this.#burst.lastGivenAt <= this.options.burstGapMs ? this.#burst : { steps: 0, lastGivenAt: givenAt };
    this.#burst = burst;
    const budgetMs = this.options.maxWaitMs + this.options.requestTimeoutMs * burst.steps;
    burst.steps += 1;
    burst.lastGivenAt = givenAt;
    return this.lane.send(() => {
      const waited = Math.round(this.#now() - givenAt);
      if (waited > budgetMs) {
        return Promise.reject(
          new CueNotSentError(
            `The cue to ${this.name} was not sent: it waited ${waited} ms for the cues before it (at most ${budgetMs} ms), and a cue is never sent late. Send it again.`,
            budgetMs,
          ),
        );
      }
      return cue();
    });
  }

  close(): void {
    this.lane.close();
  }
}
