import { describe, expect, it } from 'vitest';
import type { Node, NodeStatus } from '../src/shared/node-red.js';
import { Throttle, type Clock } from '../src/shared/status-throttle.js';
import { StatusLine } from '../src/shared/status.js';

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
});

describe('StatusLine', () => {
  it('shows a long text cut to one line of 40 characters, after the standing word', () => {
    const shown: NodeStatus[] = [];
    const node = { status: (status: NodeStatus) => shown.push(status) } as unknown as Node<never>;
    const line = new StatusLine(node, { standing: 'armed' });
    line.ok(`failed over\n  ${'Actor '.repeat(10)}`);
    line.close();
    expect(shown).toEqual([{ fill: 'green', shape: 'dot', text: 'armed · failed over Actor Actor Actor A…' }]);
    expect(shown[0]?.text).toHaveLength(40);
  });
});
