/**
 * Plausible, deterministic monitor values: a value is a pure function of (seed, stream, time bucket), so
 * `seriesAverage(series, N)` can average the last N samples without keeping history or running timers.
 */

export const SAMPLE_PERIOD_MS = 100;

/** A number in [0, 1) from three integers: a small avalanche hash, deterministic for a seed. */
export function noise(seed: number, stream: number, bucket: number): number {
  let h = (seed ^ Math.imul(stream, 0x9e3779b1) ^ Math.imul(bucket, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

export function streamIdOf(name: string): number {
  let h = 2166136261;
  for (const char of name) h = Math.imul(h ^ char.charCodeAt(0), 16777619);
  return h >>> 0;
}

export type Signal = (seed: number, stream: number, bucket: number) => number;

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

/** Frames per second near 60 with jitter; about one 5-second window in twelve dips into the high forties. */
export const fps: Signal = (seed, stream, bucket) => {
  const window = Math.floor(bucket / 50);
  const dipping = noise(seed, stream + 1, window) < 0.08;
  const base = dipping ? 48 + 4 * noise(seed, stream + 2, window) : 59.94;
  return round(base - 0.6 * noise(seed, stream, bucket), 2);
};

/** CPU utilisation in percent: a slow swell with jitter. */
export const cpu: Signal = (seed, stream, bucket) =>
  round(28 + 8 * Math.sin(bucket / 90) + 6 * noise(seed, stream, bucket), 1);

/** GPU memory in MB. */
export const gpuMemory: Signal = (seed, stream, bucket) =>
  round(6144 + 256 * Math.sin(bucket / 600) + 40 * noise(seed, stream, bucket), 0);

/** Process memory in MB, creeping up and down slowly. */
export const processMemory: Signal = (seed, stream, bucket) =>
  round(2800 + 120 * Math.sin(bucket / 1200) + 10 * noise(seed, stream, bucket), 0);

/** Total GPU frame time in ms. */
export const gpuProfiler: Signal = (seed, stream, bucket) => round(9.5 + 2.5 * noise(seed, stream, bucket), 2);

/** Mean of the last `samples` samples of a signal at time `nowMs`. */
export function seriesAverage(signal: Signal, seed: number, stream: number, nowMs: number, samples: number): number {
  const bucket = Math.floor(nowMs / SAMPLE_PERIOD_MS);
  let sum = 0;
  for (let i = 0; i < samples; i++) sum += signal(seed, stream, bucket - i);
  return round(sum / samples, 3);
}
