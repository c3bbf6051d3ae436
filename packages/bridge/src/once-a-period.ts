/**
 * Says a recurring problem once a period per source (a sender's address, a target), with how many times it
 * happened since it was last said: a flood of bad packets is one line a minute, not one line a packet. Bounded:
 * past `limit` sources the one said longest ago is forgotten.
 */
export class OnceAPeriod {
  readonly #sources = new Map<string, { saidAt: number; unsaid: number }>();

  constructor(
    private readonly periodMs = 60_000,
    private readonly limit = 1000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Counts one occurrence; answers how many to say now (those not said before, this one with them), or undefined. */
  note(source: string): { since: number } | undefined {
    const at = this.now();
    const entry = this.#sources.get(source);
    if (entry && at - entry.saidAt < this.periodMs) {
      entry.unsaid++;
      return undefined;
    }
    const since = (entry?.unsaid ?? 0) + 1;
    this.#sources.delete(source);
    this.#sources.set(source, { saidAt: at, unsaid: 0 });
    while (this.#sources.size > this.limit) {
      const oldest = this.#sources.keys().next().value;
      if (oldest === undefined) break;
      this.#sources.delete(oldest);
    }
    return { since };
  }
}
