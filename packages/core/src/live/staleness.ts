/**
 * Which of one subscription's server pairs are stale. A subscription is stale while any pair it holds is; a
 * remote-monitor subscription moves between pairs, so a pair it releases takes its mark with it.
 */
export class Staleness {
  readonly #stalePairs = new Set<string>();

  constructor(private readonly onChange: () => void) {}

  get isStale(): boolean {
    return this.#stalePairs.size > 0;
  }

  mark(pair: string, stale: boolean): void {
    const was = this.isStale;
    if (stale) this.#stalePairs.add(pair);
    else this.#stalePairs.delete(pair);
    if (this.isStale !== was) this.onChange();
  }

  release(pairs: readonly string[]): void {
    for (const pair of pairs) this.mark(pair, false);
  }
}
