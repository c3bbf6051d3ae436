import { describe, expect, it } from 'vitest';
import { Throttle, type Clock } from '../src/live/throttle.js';

/** A clock moved by hand: the throttle's decisions, without waiting. */
function manualClock() {
  let now = 0;
  let timers: { at: number; callback: () => void; id: number }[] = [];
  let nextId = 1;
  const clock: Clock = {
    now: () => now,
    setTimeout: (callback, ms) => {
      const id = nextId++;
      timers.push({ at: now + ms, callback, id });
      return id;
    },
    clearTimeout: (handle) => {
      timers = timers.filter((timer) => timer.id !== handle);
    },
  };
  const advance = (ms: number): void => {
    now += ms;
    for (const timer of timers.filter((t) => t.at <= now)) {
      timers = timers.filter((t) => t !== timer);
      timer.callback();
    }
  };
  return { clock, advance, pending: () => timers.length };
}

describe('Throttle', () => {
  it('shows the first update of a quiet period at once', () => {
    const { clock } = manualClock();
    const shown: string[] = [];
    const throttle = new Throttle<string>((value) => shown.push(value), 250, clock);
    throttle.push('play main');
    expect(shown).toEqual(['play main']);
  });

  it('folds a burst into its last value, shown when the window ends', () => {
    const { clock, advance } = manualClock();
    const shown: string[] = [];
    const throttle = new Throttle<string>((value) => shown.push(value), 250, clock);
    for (let page = 1; page <= 12; page++) throttle.push(`page ${page}/12`);
    expect(shown).toEqual(['page 1/12']);
    advance(249);
    expect(shown).toEqual(['page 1/12']);
    advance(1);
    expect(shown).toEqual(['page 1/12', 'page 12/12']);
  });

  it('never shows more than one update per window however fast they come', () => {
    const { clock, advance } = manualClock();
    const shown: number[] = [];
    const throttle = new Throttle<number>((value) => shown.push(value), 250, clock);
    for (let tick = 0; tick < 100; tick++) {
      throttle.push(tick);
      advance(10);
    }
    advance(250);
    // 1000 ms of updates every 10 ms: at most one per 250 ms window, plus the last.
    expect(shown.length).toBeLessThanOrEqual(5);
    expect(shown.at(-1)).toBe(99);
  });

  it('drops what is pending and ignores pushes once closed', () => {
    const { clock, advance, pending } = manualClock();
    const shown: string[] = [];
    const throttle = new Throttle<string>((value) => shown.push(value), 250, clock);
    throttle.push('a');
    throttle.push('b');
    throttle.close();
    expect(pending()).toBe(0);
    throttle.push('c');
    advance(1000);
    expect(shown).toEqual(['a']);
  });

  it('drops what is pending on cancel but keeps the window, so the next push still waits', () => {
    const { clock, advance } = manualClock();
    const shown: string[] = [];
    const throttle = new Throttle<string>((value) => shown.push(value), 250, clock);
    throttle.push('a');
    throttle.push('b');
    expect(throttle.pending).toBe('b');
    throttle.cancel();
    expect(throttle.pending).toBeUndefined();
    advance(100);
    throttle.push('c');
    expect(shown).toEqual(['a']);
    advance(150);
    expect(shown).toEqual(['a', 'c']);
  });
});
