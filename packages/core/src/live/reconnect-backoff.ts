import { fullJitter } from '../http/backoff.js';

/** A connection must stay open this long before its loss counts as a new outage rather than one more attempt. */
export const HEALTHY_AFTER_MS = 5000;
/**
 * Most outages are short (a restart, a dropped link): the first this many attempts wait at most a second, so
 * values come back within about a second of the server. With full jitter that is roughly the first 10 s.
 */
export const QUICK_ATTEMPTS = 20;
export const QUICK_CAP_MS = 1000;

export interface ReconnectTiming {
  reconnectBaseMs: number;
  reconnectCapMs: number;
}

export interface ReconnectClock {
  now(): number;
  random(): number;
}

const systemClock: ReconnectClock = { now: () => Date.now(), random: () => Math.random() };

/**
 * The ceiling of the wait before reconnect attempt `attempt` (0 for the first since the last healthy connection):
 * base doubling up to 1 s for the first QUICK_ATTEMPTS attempts, then 2, 4, 8, 16 s, and the cap (30 s by
 * default) from attempt QUICK_ATTEMPTS + 4 on. The ceilings before the cap add up to under a minute.
 */
export function reconnectDelay(attempt: number, timing: ReconnectTiming, random: () => number): number {
  if (attempt < QUICK_ATTEMPTS) return fullJitter(attempt, timing.reconnectBaseMs, Math.min(QUICK_CAP_MS, timing.reconnectCapMs), random);
  return fullJitter(attempt - QUICK_ATTEMPTS + 1, QUICK_CAP_MS, timing.reconnectCapMs, random);
}

/**
 * Counts reconnect attempts across connections that do not last: a server that accepts, answers and drops at
 * once (a crash loop) is retried on the growing schedule, not at once every time. Only a connection that stayed
 * open HEALTHY_AFTER_MS starts the schedule over.
 */
export class ReconnectBackoff {
  #attempt = 0;
  #openedAt: number | undefined;

  constructor(
    private readonly timing: ReconnectTiming,
    private readonly clock: ReconnectClock = systemClock,
  ) {}

  /** The socket opened. */
  opened(): void {
    this.#openedAt = this.clock.now();
  }

  /** The socket closed or failed to open: how long to wait before the next attempt. */
  nextDelay(): number {
    if (this.#openedAt !== undefined && this.clock.now() - this.#openedAt >= HEALTHY_AFTER_MS) this.#attempt = 0;
    this.#openedAt = undefined;
    return reconnectDelay(this.#attempt++, this.timing, () => this.clock.random());
  }

  /** Start the schedule over, e.g. for a new director. */
  reset(): void {
    this.#attempt = 0;
    this.#openedAt = undefined;
  }
}
