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
 * transport commands ask a server known down once, briefly, before they go); a cue that waited longer than
 * `maxWaitMs` for its turn is refused unsent.
 */
export interface CueLaneOptions {
  /** Since when and why the server has not answered (`MediaServer.linkDown`); undefined while it answers. */
  linkDown?: () => LinkDown | undefined;
  /** How long a cue may wait for the cues ahead of it before it is refused unsent; no limit by default. */
  maxWaitMs?: number;
  /** Names the lane in error messages: the server's address. */
  name?: string;
}

export interface CueSendOptions {
  /** Takes the cue out of the lane while it waits for its turn; once sent, the cue itself decides. */
  signal?: AbortSignal;
}

interface QueuedCue {
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  givenAt: number;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class CueLane {
  readonly #waiting: QueuedCue[] = [];
  #sending = false;
  #closed = false;

  constructor(private readonly options: CueLaneOptions = {}) {}

  /** Cues waiting or being sent. */
  get size(): number {
    return this.#waiting.length + (this.#sending ? 1 : 0);
  }

  /** Sends `cue` once every cue given before it has settled; settles as the cue does, or with why it was not sent. */
  send<T>(cue: () => Promise<T>, options: CueSendOptions = {}): Promise<T> {
    if (this.#closed) return Promise.reject(new ClosedError(`The cue lane of ${this.#name} is closed: nothing more is sent.`));
    if (options.signal?.aborted) return Promise.reject(new AbortedError(`The cue to ${this.#name} was cancelled before it was sent.`));
    const down = this.size > 0 ? this.options.linkDown?.() : undefined;
    if (down) return Promise.reject(this.#refusedWhileDown(down));
    return new Promise<T>((resolve, reject) => {
      const queued: QueuedCue = {
        run: cue,
        resolve: resolve as (value: unknown) => void,
        reject,
        givenAt: performance.now(),
        signal: options.signal,
        onAbort: () => this.#drop(queued, new AbortedError(`The cue to ${this.#name} was cancelled before it was sent.`)),
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
    // The monotonic clock: the wall clock jumps when the computer wakes or sets its time.
    const waited = Math.round(performance.now() - queued.givenAt);
    const maxWaitMs = this.options.maxWaitMs;
    if (maxWaitMs !== undefined && waited > maxWaitMs) {
      queued.reject(
        new TimeoutError(
          `The cue to ${this.#name} was not sent: it waited ${waited} ms for the cues before it (at most ${maxWaitMs} ms), and a cue is never sent late. Send it again.`,
          maxWaitMs,
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
