/** The spec recommends averaging 10 data points before alerting, so transient dips raise no false alarm. */
export const ALERT_AVERAGE_WINDOW = 10;

/** Mean of the last `window` samples. */
export class RollingAverage {
  readonly #samples: number[] = [];
  #sum = 0;

  constructor(readonly window: number = ALERT_AVERAGE_WINDOW) {
    if (!Number.isInteger(window) || window < 1) throw new RangeError(`window must be a whole number of samples (got ${window})`);
  }

  /** Adds a sample and answers the new mean. */
  push(sample: number): number {
    this.#samples.push(sample);
    this.#sum += sample;
    if (this.#samples.length > this.window) this.#sum -= this.#samples.shift() ?? 0;
    return this.#sum / this.#samples.length;
  }

  get value(): number | undefined {
    return this.#samples.length === 0 ? undefined : this.#sum / this.#samples.length;
  }

  get count(): number {
    return this.#samples.length;
  }

  /** Forget every sample, e.g. after a disconnect, so old values never mix with new ones. */
  reset(): void {
    this.#samples.length = 0;
    this.#sum = 0;
  }
}
