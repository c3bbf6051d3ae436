import { describe, expect, it } from 'vitest';
import { HEALTHY_AFTER_MS, QUICK_WINDOW_MS, ReconnectBackoff } from '../src/live/reconnect-backoff.js';

const TIMING = { reconnectBaseMs: 100, reconnectCapMs: 30_000 };
/** Full jitter at its top: every wait is its ceiling (less a millisecond). */
const top = () => 0.999999;

function backoffAt() {
  const clock = { time: 0, now: () => clock.time, random: top };
  return { backoff: new ReconnectBackoff(TIMING, clock), clock };
}

/** A server that refuses every attempt until `until` ms into the outage: the waits chosen. */
function refuseUntil(backoff: ReconnectBackoff, clock: { time: number }, until: number): number[] {
  const waits: number[] = [];
  while (clock.time < until) {
    const wait = backoff.nextDelay();
    waits.push(wait);
    clock.time += wait;
  }
  return waits;
}

/** A server that accepts, answers and drops at once, `count` times: the waits chosen after each drop. */
function flap(backoff: ReconnectBackoff, clock: { time: number }, count: number): number[] {
  const waits: number[] = [];
  for (let i = 0; i < count; i++) {
    backoff.opened();
    clock.time += 50;
    const wait = backoff.nextDelay();
    waits.push(wait);
    clock.time += wait;
  }
  return waits;
}

describe('ReconnectBackoff', () => {
  it('retries a server that drops every connection at once on the growing schedule, not at once each time', () => {
    const { backoff, clock } = backoffAt();
    expect(flap(backoff, clock, 6)).toEqual([99, 199, 399, 799, 999, 999]);
  });

  it('stays within a second for the first minute of an outage, then grows to the cap and stops there', () => {
    const { backoff, clock } = backoffAt();
    const quick = refuseUntil(backoff, clock, QUICK_WINDOW_MS);
    expect(Math.max(...quick)).toBe(999);
    const slow = Array.from({ length: 8 }, () => backoff.nextDelay());
    expect(slow).toEqual([1999, 3999, 7999, 15_999, 29_999, 29_999, 29_999, 29_999]);
  });

  it('keeps climbing across connections that do not last', () => {
    const { backoff, clock } = backoffAt();
    while (clock.time < QUICK_WINDOW_MS) flap(backoff, clock, 1);
    backoff.opened();
    clock.time += HEALTHY_AFTER_MS - 1;
    expect(backoff.nextDelay()).toBe(1999);
    expect(flap(backoff, clock, 4)).toEqual([3999, 7999, 15_999, 29_999]);
  });

  it('starts over after a connection that stayed open long enough', () => {
    const { backoff, clock } = backoffAt();
    refuseUntil(backoff, clock, 2 * QUICK_WINDOW_MS);
    expect(backoff.nextDelay()).toBe(29_999);
    backoff.opened();
    clock.time += HEALTHY_AFTER_MS;
    expect(backoff.nextDelay()).toBe(99);
    expect(backoff.nextDelay()).toBe(199);
  });

  it('starts over when told to, e.g. for a new director', () => {
    const { backoff, clock } = backoffAt();
    flap(backoff, clock, 10);
    backoff.reset();
    expect(backoff.nextDelay()).toBe(99);
  });

  it('never waits past a cap below a second', () => {
    const backoff = new ReconnectBackoff({ reconnectBaseMs: 50, reconnectCapMs: 400 }, { now: () => 0, random: top });
    const waits = Array.from({ length: 30 }, () => backoff.nextDelay());
    expect(Math.max(...waits)).toBe(399);
  });
});
