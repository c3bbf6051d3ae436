/**
 * Says a recurring problem once a period per source (a sender's address, a target), with how many times it
 * happened since it was last said: a flood of bad packets is one line a minute, not one line a packet. Bounded:
 * past `limit` sources the one said longest ago is forgotten.
 */
export class OnceAPeriod {
  readonly #sources = new Map<string, { saidAt: number; count: number; unsaid: number }>();

  constructor(
    private readonly periodMs = 60_000,
    private readonly limit = 1000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Counts one occurrence; answers the counts to say now (the total and those not said before), or undefined. */
  note(source: string): { count: number; since: number } | undefined {
    const at = this.now();
    const entry = this.#sources.get(source);
    if (entry && at - entry.saidAt < this.periodMs) {
      entry.count++;
      entry.unsaid++;
      return undefined;
    }
    const count = (entry?.count ?? 0) + 1;
    const since = (entry?.unsaid ?? 0) + 1;
    this.#sources.delete(source);
    this.#sources.set(source, { saidAt: at, count, unsaid: 0 });
    while (this.#sources.size > this.limit) {
      const oldest = this.#sources.keys().next().value;
      if (oldest === undefined) break;
      this.#sources.delete(oldest);
    }
    return { count, since };
  }

  /** Every occurrence counted, by source. */
  count(source: string): number {
    return this.#sources.get(source)?.count ?? 0;
  }
}
