/**
 * Paces the values of one server subscription for a consumer slower than it. A server sends a value only when
 * it changes, so a value dropped inside the consumer's interval may be the last one for a long time: the newest
 * is handed over when the interval ends, and a consumer of any interval ends on the latest value.
 */
export class DeliveryPace {
  #lastAt = -Infinity;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    /** The consumer's interval; 0 or the server subscription's own interval means every value. */
    private readonly intervalMs: number,
    private readonly now: () => number,
  ) {}

  /**
   * Calls `deliver` now when the interval has passed, else once when it ends (with whatever `deliver` then reads
   * as the newest value). `paceMs` is the server subscription's interval: a consumer no slower gets every value.
   */
  offer(paceMs: number, deliver: () => void): void {
    const now = this.now();
    // 10 % slack so a consumer at 250 ms fed every 100 ms gets every third value, not every fourth.
    const wait = this.#lastAt + this.intervalMs * 0.9 - now;
    if (this.intervalMs <= paceMs || wait <= 0) {
      // A busy event loop can read a frame before an overdue timer: the newest value goes now, and only once.
      this.cancel();
      this.#lastAt = now;
      return deliver();
    }
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#lastAt = this.now();
      deliver();
    }, wait);
  }

  /** Forgets a value waiting for the interval's end (the stream dropped, the consumer left). */
  cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
