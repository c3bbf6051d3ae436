/** Order statistics of samples: what every benchmark reports. */

/** The value below which a fraction `q` (0 to 1) of the samples lie, by linear interpolation between ranks. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const below = Math.floor(rank);
  const lower = sorted[below] ?? Number.NaN;
  const upper = sorted[Math.min(below + 1, sorted.length - 1)] ?? lower;
  return lower + (upper - lower) * (rank - below);
}

export function median(samples: readonly number[]): number {
  return quantile(samples, 0.5);
}

export function p99(samples: readonly number[]): number {
  return quantile(samples, 0.99);
}
