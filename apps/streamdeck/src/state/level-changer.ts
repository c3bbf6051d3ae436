/**
 * Turns dial ticks into few volume or brightness requests. Ticks add up to a target; one request is in
 * flight at a time, and when it answers the newest target goes out as one absolute value. Three quick ticks
 * cost at most two requests and end exactly three steps away. Server values from the poll are ignored while
 * a change is under way, and so is any poll sent before the last change landed, so the strip never jumps
 * back to an old value.
 */

export interface LevelChangerOptions {
  /** Sends an absolute value; rejects when it did not take effect. */
  apply(value: number): Promise<void>;
  /** The value to show changed (optimistically, as soon as a tick arrives). */
  onValue(value: number): void;
  /** A request failed; the shown value went back to the last one the server confirmed. */
  onFailure(error: unknown): void;
  /** Clock for ordering polls against changes (ms since epoch). */
  now?: () => number;
}

/** Volume and brightness run from 0 to 1 (the simulator's range; the spec shows none). */
export const LEVEL_MIN = 0;
export const LEVEL_MAX = 1;

export class LevelChanger {
  #confirmed: number | undefined;
  #target: number | undefined;
  #inFlight = false;
  /** When the last successful change was answered: polls requested before then are out of date. */
  #settledAt = -Infinity;
  #disposed = false;

  constructor(private readonly options: LevelChangerOptions) {}

  /** The value to show: the pending target, else the last confirmed value. */
  get value(): number | undefined {
    return this.#target ?? this.#confirmed;
  }

  get busy(): boolean {
    return this.#inFlight || this.#target !== undefined;
  }

  /** A value read from the server by a request sent at `requestedAt`. */
  known(value: number, requestedAt: number): void {
    if (this.#disposed || this.busy || requestedAt < this.#settledAt) return;
    if (value === this.#confirmed) return;
    this.#confirmed = value;
    this.options.onValue(value);
  }

  /** The link is down: nothing confirmed any more. */
  forget(): void {
    this.#confirmed = undefined;
  }

  /**
   * Moves the target by `ticks` steps. Returns false when there is no value to start from yet (the dial has
   * not heard from the server), in which case nothing is sent.
   */
  turn(ticks: number, step: number): boolean {
    if (this.#disposed) return false;
    const from = this.value;
    if (from === undefined) return false;
    const target = clamp(withoutFloatNoise(withoutFloatNoise(from) + ticks * step));
    if (target === from && !this.busy) return true;
    this.#target = target;
    this.options.onValue(target);
    this.#sendNext();
    return true;
  }

  dispose(): void {
    this.#disposed = true;
  }

  #sendNext(): void {
    if (this.#inFlight || this.#target === undefined || this.#disposed) return;
    const value = this.#target;
    this.#inFlight = true;
    this.options.apply(value).then(
      () => this.#landed(value),
      (error: unknown) => this.#failed(error),
    );
  }

  #landed(value: number): void {
    this.#inFlight = false;
    this.#confirmed = value;
    this.#settledAt = (this.options.now ?? Date.now)();
    if (this.#target === value) this.#target = undefined;
    this.#sendNext();
  }

  #failed(error: unknown): void {
    this.#inFlight = false;
    this.#target = undefined;
    if (this.#disposed) return;
    if (this.#confirmed !== undefined) this.options.onValue(this.#confirmed);
    this.options.onFailure(error);
  }
}

function clamp(value: number): number {
  return Math.min(LEVEL_MAX, Math.max(LEVEL_MIN, value));
}

/**
 * Servers hand back 32-bit floats (0.9 reads 0.8999999761581421, notes/field-notes.md). Six decimals are finer
 * than a step and coarser than that noise, so a tick moves exactly one step from any value, on the step grid or
 * off it (0.83 turns to 0.88, not 0.90).
 */
function withoutFloatNoise(value: number): number {
  return Number(value.toFixed(6));
}
