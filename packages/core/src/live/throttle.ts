/**
 * Paces values shown to a person or sent to many listeners: a key face, a node's status line, a broker topic.
 * The first value of a quiet period goes out at once; later ones within the window collapse into the newest,
 * which goes out when the window ends, so the final state is never lost and a steady stream gets no delay.
 */

/** The time source a Throttle waits on; tests move one by hand. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const monotonicClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class Throttle<T> {
  #lastEmittedAt = -Infinity;
  #pending: { value: T } | undefined;
  #timer: unknown;
  #closed = false;

  constructor(
    private readonly emit: (value: T) => void,
    private readonly windowMs: number,
    private readonly clock: Clock = monotonicClock,
  ) {}

  /** The value waiting for the window to end, if any. */
  get pending(): T | undefined {
    return this.#pending?.value;
  }

  push(value: T): void {
    if (this.#closed) return;
    const wait = this.#lastEmittedAt + this.windowMs - this.clock.now();
    if (wait <= 0 && this.#timer === undefined) {
      this.#emit(value);
      return;
    }
    this.#pending = { value };
    this.#timer ??= this.clock.setTimeout(() => this.#flush(), Math.max(wait, 0));
  }

  /** Drops the value waiting, if any; the window goes on, so the next push still waits for it. */
  cancel(): void {
    if (this.#timer !== undefined) this.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending = undefined;
  }

  /** Drops the value waiting and stops: later pushes are ignored. For close handlers. */
  close(): void {
    this.#closed = true;
    this.cancel();
  }

  #flush(): void {
    this.#timer = undefined;
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending) this.#emit(pending.value);
  }

  #emit(value: T): void {
    this.#lastEmittedAt = this.clock.now();
    this.emit(value);
  }
}
