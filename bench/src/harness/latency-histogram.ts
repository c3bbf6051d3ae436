/**
 * Delivery latencies counted in 0.1 ms bins: a child process holding a thousand subscribers hands back a few
 * hundred bins instead of every sample, and the parent merges them.
 */

const BIN_MS = 0.1;

/** [bin, count] pairs: what crosses the process boundary. */
export type HistogramBins = [number, number][];

export class LatencyHistogram {
  readonly #bins = new Map<number, number>();
  #count = 0;

  get count(): number {
    return this.#count;
  }

  add(latencyMs: number): void {
    const bin = Math.max(0, Math.round(latencyMs / BIN_MS));
    this.#bins.set(bin, (this.#bins.get(bin) ?? 0) + 1);
    this.#count++;
  }

  merge(bins: HistogramBins): void {
    for (const [bin, count] of bins) {
      this.#bins.set(bin, (this.#bins.get(bin) ?? 0) + count);
      this.#count += count;
    }
  }

  bins(): HistogramBins {
    return [...this.#bins];
  }

  /** The latency below which a fraction `q` of the samples lie (the bin's value, to 0.1 ms); NaN when empty. */
  quantile(q: number): number {
    if (this.#count === 0) return Number.NaN;
    const rank = Math.ceil(q * this.#count);
    let seen = 0;
    for (const bin of [...this.#bins.keys()].sort((a, b) => a - b)) {
      seen += this.#bins.get(bin) ?? 0;
      if (seen >= rank) return bin * BIN_MS;
    }
    return Number.NaN;
  }

  max(): number {
    return this.#count === 0 ? Number.NaN : Math.max(...this.#bins.keys()) * BIN_MS;
  }
}
