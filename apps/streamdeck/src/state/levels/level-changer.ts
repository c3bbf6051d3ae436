/**
 * Turns what an operator does with a level dial into few volume or brightness writes. Ticks add up to a
 * target; one write is in flight at a time, and when it lands the newest target goes out as one absolute
 * value (the last value wins). Three quick ticks cost at most two writes and end exactly three steps away. A
 * push takes the level to 0 and remembers where it was, and the next push goes back there. Server values
 * from the poll are ignored while a change is under way, and so is any poll sent before the last change
 * landed, so the strip never jumps back to an old value.
 */

import type { ReturnLevel } from './level-memory.js';

export interface LevelChangerOptions {
  /** Sends an absolute value; rejects when it did not take effect. */
  apply(value: number): Promise<void>;
  /** The value to show changed (optimistically, as soon as a tick arrives). */
  onValue(value: number): void;
  /** A request failed; the shown value went back to the last one the server confirmed. */
  onFailure(error: unknown): void;
  /** A write went out (true) or the last one landed or failed with nothing left to send (false). */
  onWriting?(writing: boolean): void;
  /** Clock for ordering polls against changes: the polls' own, monotonic (`performance.now()`), so a wall-clock step cannot reorder them. */
  now?: () => number;
  /** Where a push at 0 goes back to, when it is kept beyond this changer (see LevelMemory). */
  returnLevel?: ReturnLevel;
}

/** Volume and brightness run from 0 to 1 (the simulator's range; the spec shows none). */
export const LEVEL_MIN = 0;
export const LEVEL_MAX = 1;

export class LevelChanger {
  #confirmed: number | undefined;
  #target: number | undefined;
  #inFlight = false;
  /** What onWriting last said. */
  #writing = false;
  /** Where a push at 0 goes back to: the level the last push took to 0. */
  readonly #returnTo: ReturnLevel;
  /** When the last successful change was answered: polls requested before then are out of date. */
  #settledAt = -Infinity;
  #disposed = false;

  constructor(private readonly options: LevelChangerOptions) {
    this.#returnTo = options.returnLevel ?? { value: undefined };
  }

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
    const from = this.value;
    if (from === undefined) return false;
    return this.#aim(withoutFloatNoise(from) + ticks * step);
  }

  /**
   * A push: a level above 0 goes to 0 and is remembered; at 0 it goes back to the remembered level. Returns
   * false when there is no value to start from, or the level is 0 and nothing is remembered: jumping to full
   * volume or brightness in the middle of a show is no guess to make.
   */
  toggleOff(): boolean {
    const from = this.value;
    if (from === undefined) return false;
    if (withoutFloatNoise(from) > LEVEL_MIN) {
      this.#returnTo.value = from;
      return this.#aim(LEVEL_MIN);
    }
    const back = this.#returnTo.value;
    if (back === undefined) return false;
    this.#returnTo.value = undefined;
    return this.#aim(back);
  }

  dispose(): void {
    this.#disposed = true;
  }

  #aim(value: number): boolean {
    if (this.#disposed) return false;
    const target = clamp(withoutFloatNoise(value));
    if (target === this.value && !this.busy) return true;
    this.#target = target;
    this.options.onValue(target);
    this.#sendNext();
    return true;
  }

  #sendNext(): void {
    if (this.#inFlight || this.#target === undefined || this.#disposed) return;
    const value = this.#target;
    this.#inFlight = true;
    this.#showWriting(true);
    this.options.apply(value).then(
      () => this.#landed(value),
      (error: unknown) => this.#failed(error),
    );
  }

  #landed(value: number): void {
    this.#inFlight = false;
    this.#confirmed = value;
    this.#settledAt = (this.options.now ?? (() => performance.now()))();
    if (this.#target === value) this.#target = undefined;
    this.#sendNext();
    if (!this.#inFlight) this.#showWriting(false);
  }

  #failed(error: unknown): void {
    this.#inFlight = false;
    this.#target = undefined;
    this.#showWriting(false);
    if (this.#disposed) return;
    if (this.#confirmed !== undefined) this.options.onValue(this.#confirmed);
    this.options.onFailure(error);
  }

  #showWriting(writing: boolean): void {
    if (writing === this.#writing) return;
    this.#writing = writing;
    if (!this.#disposed) this.options.onWriting?.(writing);
  }
}

function clamp(value: number): number {
  return Math.min(LEVEL_MAX, Math.max(LEVEL_MIN, value));
}

/**
 * Servers store levels as 32-bit floats (0.9 reads back 0.8999999761581421). Six decimals are finer
 * than a step and coarser than that noise, so a tick moves exactly one step from any value, on the step grid or
 * off it (0.83 turns to 0.88, not 0.90).
 */
function withoutFloatNoise(value: number): number {
  return Number(value.toFixed(6));
}
