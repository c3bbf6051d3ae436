/** Now as an ISO 8601 UTC timestamp with microseconds and a trailing Z (the spec's `created_at` format). */
export type Clock = () => string;

/** `2025-01-06T09:00:00.123456Z` for a count of microseconds since the epoch. */
export function formatMicros(epochMicros: number): string {
  const millis = Math.floor(epochMicros / 1000);
  const extraMicros = String(epochMicros - millis * 1000).padStart(3, '0');
  return new Date(millis).toISOString().replace('Z', `${extraMicros}Z`);
}

/**
 * Wall-clock time with microsecond resolution that never repeats or goes back, so every update of a version gets
 * an `updated_at` later than the one before, however quickly updates follow each other.
 */
export function wallClock(nowMicros: () => number = () => Math.floor((performance.timeOrigin + performance.now()) * 1000)): Clock {
  let last = 0;
  return () => {
    last = Math.max(nowMicros(), last + 1);
    return formatMicros(last);
  };
}
