/**
 * Keeps status updates to a few a second: every update goes to the editor over the comms socket, and a live
 * value at 100 ms on twenty nodes would flood it. The first update of a quiet period shows at once; later ones
 * within the window collapse into the last, shown when the window ends, so the final state is never lost.
 */
export const STATUS_WINDOW_MS = 250;

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class Throttle<T> {
  #lastShown = -Infinity;
  #pending: { value: T } | undefined;
  #timer: unknown;
  #closed = false;

  constructor(
    private readonly show: (value: T) => void,
    private readonly windowMs = STATUS_WINDOW_MS,
    private readonly clock: Clock = systemClock,
  ) {}

  push(value: T): void {
    if (this.#closed) return;
    const wait = this.#lastShown + this.windowMs - this.clock.now();
    if (wait <= 0 && this.#timer === undefined) {
      this.#emit(value);
      return;
    }
    this.#pending = { value };
    this.#timer ??= this.clock.setTimeout(() => this.#flush(), Math.max(wait, 0));
  }

  /** Drops the pending value and stops: later pushes are ignored. For close handlers. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) this.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending = undefined;
  }

  #flush(): void {
    this.#timer = undefined;
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending) this.#emit(pending.value);
  }

  #emit(value: T): void {
    this.#lastShown = this.clock.now();
    this.show(value);
  }
}
