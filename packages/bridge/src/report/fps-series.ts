import type { FpsSeries } from './report-model.js';

/**
 * At most this many points per machine: an 8-hour show at 4 values a second is 115,200 values, more than a chart
 * a page wide can show, and 20 of them would make the page slow to open.
 */
export const MAX_POINTS_PER_MACHINE = 2000;

/** From `at` on, a machine's FPS is `value`; null from `at` on, it could not be seen. */
export interface FpsStep {
  at: number;
  value: number | null;
}

/**
 * A machine's FPS in the window [from, to] from its steps in time order (those before `from` give the value it
 * starts with). A value holds until the next step: the bridge writes FPS only when it changes. Kept as written
 * when that is few enough points; otherwise cut into equal buckets, each with the time-weighted average of the
 * values held in it and the lowest of them, so that a drop of a second in the finale still shows as its minimum.
 */
export function fpsSeries(steps: readonly FpsStep[], from: number, to: number, maxPoints = MAX_POINTS_PER_MACHINE): Omit<FpsSeries, 'values' | 'lowest'> {
  const points = stepsInWindow(steps, from, to);
  if (points.length <= maxPoints) {
    const values = points.map((point) => (point.value === null ? null : round(point.value)));
    return { t: points.map((point) => point.at), avg: values, min: values, bucketMs: 0 };
  }
  const bucketMs = Math.ceil((to - from) / maxPoints);
  const count = Math.ceil((to - from) / bucketMs) || 1;
  const sum = new Float64Array(count);
  const weight = new Float64Array(count);
  const min = new Float64Array(count).fill(Number.POSITIVE_INFINITY);
  const bucketOf = (at: number) => Math.min(count - 1, Math.floor((at - from) / bucketMs));
  for (let index = 0; index < points.length - 1; index++) {
    const { at: start, value } = points[index] as FpsStep;
    if (value === null) continue;
    const end = (points[index + 1] as FpsStep).at;
    for (let bucket = bucketOf(start), last = bucketOf(Math.max(start, end - 1)); bucket <= last; bucket++) {
      const bucketStart = from + bucket * bucketMs;
      const overlap = Math.min(end, bucketStart + bucketMs) - Math.max(start, bucketStart);
      sum[bucket] = (sum[bucket] ?? 0) + value * Math.max(0, overlap);
      weight[bucket] = (weight[bucket] ?? 0) + Math.max(0, overlap);
      if (value < (min[bucket] ?? Number.POSITIVE_INFINITY)) min[bucket] = value;
    }
  }
  const series: Omit<FpsSeries, 'values' | 'lowest'> = { t: [], avg: [], min: [], bucketMs };
  for (let bucket = 0; bucket < count; bucket++) {
    const lowest = min[bucket] ?? Number.POSITIVE_INFINITY;
    const seen = lowest !== Number.POSITIVE_INFINITY;
    const weighed = weight[bucket] ?? 0;
    series.t.push(from + bucket * bucketMs);
    series.avg.push(!seen ? null : round(weighed > 0 ? (sum[bucket] ?? 0) / weighed : lowest));
    series.min.push(seen ? round(lowest) : null);
  }
  // The last step holds to the window's end.
  series.t.push(to);
  series.avg.push(series.avg.at(-1) ?? null);
  series.min.push(series.min.at(-1) ?? null);
  return series;
}

/** The value held at `from`, the steps inside the window, and the value held at `to`. */
function stepsInWindow(steps: readonly FpsStep[], from: number, to: number): FpsStep[] {
  let held: number | null = null;
  let first = 0;
  while (first < steps.length && (steps[first] as FpsStep).at <= from) held = (steps[first++] as FpsStep).value;
  const points: FpsStep[] = [{ at: from, value: held }];
  for (let index = first; index < steps.length && (steps[index] as FpsStep).at < to; index++) points.push(steps[index] as FpsStep);
  points.push({ at: to, value: (points.at(-1) as FpsStep).value });
  return points;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
