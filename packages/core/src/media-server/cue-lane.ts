import { AbortedError, ClosedError, ConnectionError, TimeoutError } from '../errors.js';
import type { LinkDown } from './link-watch.js';

/**
 * One server's cues, sent one at a time in the order they were given. The client's pool opens several
 * connections to a server, so two cues given at once ("go to track", then "play", as a multi-action fires them)
 * can otherwise land in either order; a lane sends the next cue only once the one before it has settled
 * (answered, refused or failed), so they land as given.
 *
 * Nothing lands late, and nobody waits for a server known not to answer: a cue given while the server is known
 * down and other cues are still ahead of it is refused at once (a cue whose turn comes is the cue's own business:
 * transport commands ask a server known down once, briefly, before they go); a cue that waited longer than its
 * budget for its turn is refused unsent, with a TimeoutError whose `mayHaveReachedServer` is false.
 *
 * A cue's budget is `maxWaitMs`. The steps of a multi-step button (a Stream Deck multi-action, a Companion button's
 * actions) arrive at once and each waits for the one before it, which on a slow director may take a whole request
 * timeout: with `burstGapMs` and `stepAllowanceMs`, cues given at most `burstGapMs` after the one before are one
 * burst, and each step of a burst may wait `stepAllowanceMs` longer than the step before it. A cue pressed on its
 * own keeps the flat budget. Waits are timed on the monotonic clock (`performance.now`), which a computer's clock
 * being set or waking from sleep does not move.
 */
export interface CueLaneOptions {
  /** Since when and why the server has not answered (`MediaServer.linkDown`); undefined while it answers. */
  linkDown?: () => LinkDown | undefined;
  /** How long a cue may wait for the cues ahead of it before it is refused unsent; no limit by default. */
  maxWaitMs?: number;
  /**
   * Cues given at most this far apart (ms) are one burst: the steps of one multi-step button. Used with
   * `stepAllowanceMs` and `maxWaitMs`; without it every cue has the flat `maxWaitMs`.
   */
  burstGapMs?: number;
  /**
   * What each step given before a cue in its burst adds to the cue's budget (ms): one request timeout, the
   * longest the step ahead can take. Used with `burstGapMs` and `maxWaitMs`.
   */
  stepAllowanceMs?: number;
  /** Names the lane in error messages: the server's address. */
  name?: string;
}

export interface CueSendOptions {
  /** Takes the cue out of the lane while it waits for its turn; once sent, the cue itself decides. */
  signal?: AbortSignal;
}

/** The burst the latest cues belong to. */
interface Burst {
  /** Cues of the burst given so far. */
  steps: number;
  lastGivenAt: number;
}

interface QueuedCue {
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  givenAt: number;
  /** How long it may wait for its turn; undefined: as long as it takes. */
  budgetMs: number | undefined;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class CueLane {
  readonly #waiting: QueuedCue[] = [];
  #sending = false;
  #closed = false;
  #burst: Burst | undefined;

  constructor(private readonly options: CueLaneOptions = {}) {}

  /** Cues waiting or being sent. */
  get size(): number {
    return this.#waiting.length + (this.#sending ? 1 : 0);
  }

  /** Sends `cue` once every cue given before it has settled; settles as the cue does, or with why it was not sent. */
  send<T>(cue: () => Promise<T>, options: CueSendOptions = {}): Promise<T> {
    if (this.#closed) return Promise.reject(new ClosedError(`The cue lane of ${this.#name} is closed: nothing more is sent.`));
    if (options.signal?.aborted) return Promise.reject(new AbortedError(`The cue to ${this.#name} was cancelled before it was sent.`, undefined, { mayHaveReachedServer: false }));
    const down = this.size > 0 ? this.options.linkDown?.() : undefined;
    if (down) return Promise.reject(this.#refusedWhileDown(down));
    // The monotonic clock: the wall clock jumps when the computer wakes or sets its time.
    const givenAt = performance.now();
    const budgetMs = this.#budgetOf(givenAt);
    return new Promise<T>((resolve, reject) => {
      const queued: QueuedCue = {
        run: cue,
        resolve: resolve as (value: unknown) => void,
        reject,
        givenAt,
        budgetMs,
        signal: options.signal,
        onAbort: () => this.#drop(queued, new AbortedError(`The cue to ${this.#name} was cancelled before it was sent.`, undefined, { mayHaveReachedServer: false })),
      };
      options.signal?.addEventListener('abort', queued.onAbort, { once: true });
      this.#waiting.push(queued);
      this.#next();
    });
  }

  /** Refuses every cue still waiting; the one being sent settles by itself. Idempotent. */
  close(): void {
    this.#closed = true;
    for (const queued of [...this.#waiting]) this.#drop(queued, new ClosedError(`The cue lane of ${this.#name} closed before the cue was sent.`));
  }

  get #name(): string {
    return this.options.name ?? 'the server';
  }

  #next(): void {
    if (this.#sending) return;
    const queued = this.#waiting.shift();
    if (!queued) return;
    queued.signal?.removeEventListener('abort', queued.onAbort);
    const waited = Math.round(performance.now() - queued.givenAt);
    const { budgetMs } = queued;
    if (budgetMs !== undefined && waited > budgetMs) {
      queued.reject(
        new TimeoutError(
          `The cue to ${this.#name} was not sent: it waited ${waited} ms for the cues before it (at most ${budgetMs} ms), and a cue is never sent late. Send it again.`,
          budgetMs,
          undefined,
          { mayHaveReachedServer: false },
        ),
      );
      this.#next();
      return;
    }
    this.#sending = true;
    Promise.resolve()
      .then(queued.run)
      .then(queued.resolve, queued.reject)
      .finally(() => {
        this.#sending = false;
        this.#next();
      });
  }

  /** The budget of a cue given at `givenAt`, counting it as the next step of its burst. */
  #budgetOf(givenAt: number): number | undefined {
    const { maxWaitMs, burstGapMs, stepAllowanceMs } = this.options;
    if (maxWaitMs === undefined || burstGapMs === undefined || stepAllowanceMs === undefined) return maxWaitMs;
    const burst = this.#burst && givenAt - this.#burst.lastGivenAt <= burstGapMs ? this.#burst : { steps: 0, lastGivenAt: givenAt };
    this.#burst = burst;
    const budgetMs = maxWaitMs + stepAllowanceMs * burst.steps;
    burst.steps += 1;
    burst.lastGivenAt = givenAt;
    return budgetMs;
  }

  #drop(queued: QueuedCue, error: Error): void {
    const index = this.#waiting.indexOf(queued);
    if (index === -1) return;
    this.#waiting.splice(index, 1);
    queued.signal?.removeEventListener('abort', queued.onAbort);
    queued.reject(error);
  }

  #refusedWhileDown(down: LinkDown): ConnectionError {
    return new ConnectionError(
      `The cue to ${this.#name} was not sent: the server has not answered since ${down.since.toLocaleTimeString()} (${down.reason}). Send it again once the server answers.`,
      undefined,
      { cause: down.error, mayHaveReachedServer: false },
    );
  }
}
