/**
 * Keys seen lately and what each answered, for a window of time: a copy within the window is told apart from the
 * same key sent again later on purpose (a fixed cue pressed again). Bounded: past `limit` keys the oldest is
 * forgotten, whatever its age.
 */
export class RecentIds<T> {
  /** In the order they were remembered: the oldest first. */
  readonly #seen = new Map<string, { at: number; value: T }>();

  constructor(
    readonly limit: number = 10_000,
    /** How long a key is remembered, in ms (for ever when not given). */
    readonly windowMs: number = Infinity,
    private readonly now: () => number = Date.now,
  ) {}

  /** What the key answered, and when it was remembered; undefined once its window has passed. */
  seen(key: string): { at: number; value: T } | undefined {
    this.#forgetOld();
    return this.#seen.get(key);
  }

  get(key: string): T | undefined {
    return this.seen(key)?.value;
  }

  remember(key: string, value: T): void {
    this.#seen.delete(key);
    this.#seen.set(key, { at: this.now(), value });
    this.#forgetOld();
    while (this.#seen.size > this.limit) {
      const oldest = this.#seen.keys().next().value;
      if (oldest === undefined) break;
      this.#seen.delete(oldest);
    }
  }

  get size(): number {
    this.#forgetOld();
    return this.#seen.size;
  }

  #forgetOld(): void {
    const before = this.now() - this.windowMs;
    for (const [key, { at }] of this.#seen) {
      if (at > before) break;
      this.#seen.delete(key);
    }
  }
}
