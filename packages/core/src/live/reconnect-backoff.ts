import { fullJitter } from '../http/backoff.js';

/** A connection must stay open this long before its loss counts as a new outage rather than one more attempt. */
export const HEALTHY_AFTER_MS = 5000;
/**
 * Most outages are short (a restart, a dropped link): for the first minute of one, every wait stays within a
 * second, so values come back within about a second of the server.
 */
export const QUICK_WINDOW_MS = 60_000;
const QUICK_CAP_MS = 1000;

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
 * When to try again after the live-update socket closed or failed to open. Waits use full jitter: the base
 * doubling up to a second during the first QUICK_WINDOW_MS of an outage, then 2, 4, 8, 16 s and the cap (30 s
 * by default). An outage lasts until a connection stays open HEALTHY_AFTER_MS: a server that accepts, answers
 * and drops at once (a crash loop) is retried on the same schedule, never at once each time.
 */
export class ReconnectBackoff {
  #outageSince: number | undefined;
  #quickAttempts = 0;
  #slowAttempts = 0;
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
    const now = this.clock.now();
    if (this.#openedAt !== undefined && now - this.#openedAt >= HEALTHY_AFTER_MS) this.reset();
    this.#openedAt = undefined;
    this.#outageSince ??= now;
    const random = () => this.clock.random();
    const { reconnectBaseMs, reconnectCapMs } = this.timing;
    if (now - this.#outageSince < QUICK_WINDOW_MS) {
      return fullJitter(this.#quickAttempts++, reconnectBaseMs, Math.min(QUICK_CAP_MS, reconnectCapMs), random);
    }
    return fullJitter(++this.#slowAttempts, QUICK_CAP_MS, reconnectCapMs, random);
  }

  /** Start the schedule over, e.g. for a new director. */
  reset(): void {
    this.#outageSince = undefined;
    this.#quickAttempts = 0;
    this.#slowAttempts = 0;
    this.#openedAt = undefined;
  }
}
