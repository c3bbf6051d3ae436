/**
 * A small seeded PRNG (mulberry32): the same seed builds the same show, the same uids and the same readings.
 * Never used for anything secret.
 */
export class SeededRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  integer(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A number in [min, max), rounded to `decimals` places as a reading would be. */
  between(min: number, max: number, decimals = 2): number {
    return Number((min + this.next() * (max - min)).toFixed(decimals));
  }

  /** 32 random bits as an unsigned integer. */
  bits32(): number {
    return Math.floor(this.next() * 4294967296);
  }
}
