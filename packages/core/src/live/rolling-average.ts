import { InvalidInputError } from '../errors.js';

/** The spec recommends averaging 10 data points before alerting, so transient dips raise no false alarm. */
export const ALERT_AVERAGE_WINDOW = 10;

/**
 * Significant digits a mean keeps: far more than any reading has, and few enough to drop binary floating-point
 * noise, so an operator sees 59.637 rather than 59.637000000000002.
 */
const MEAN_DIGITS = 12;

/** Mean of the last `window` samples. */
export class RollingAverage {
  readonly #samples: number[] = [];

  constructor(readonly window: number = ALERT_AVERAGE_WINDOW) {
    if (!Number.isInteger(window) || window < 1) throw new RangeError(`window must be a whole number of samples (got ${window})`);
  }

  /** Adds a sample and answers the new mean. A sample that is not a finite number is refused and changes nothing. */
  push(sample: number): number {
    if (typeof sample !== 'number' || !Number.isFinite(sample)) {
      throw new InvalidInputError(`A rolling average takes finite numbers (got ${String(sample)}).`);
    }
    this.#samples.push(sample);
    if (this.#samples.length > this.window) this.#samples.shift();
    return this.#mean();
  }

  get value(): number | undefined {
    return this.#samples.length === 0 ? undefined : this.#mean();
  }

  get count(): number {
    return this.#samples.length;
  }

  /** Forget every sample, e.g. after a disconnect, so old values never mix with new ones. */
  reset(): void {
    this.#samples.length = 0;
  }

  // Summed afresh each time (a window is small): a running sum would drift over a long show.
  #mean(): number {
    const sum = this.#samples.reduce((total, sample) => total + sample, 0);
    return Number((sum / this.#samples.length).toPrecision(MEAN_DIGITS));
  }
}
