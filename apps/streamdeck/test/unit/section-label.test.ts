import { describe, expect, it } from 'vitest';
import { clockTime, sectionLabel } from '../../src/inspector/section-label.js';

describe('how the transport inspector lists a section', () => {
  it('shows its index and the time it starts at', () => {
    expect(sectionLabel({ index: 0, time: 0 })).toBe('0 · 0:00');
    expect(sectionLabel({ index: 1, time: 90 })).toBe('1 · 1:30');
  });

  it.each([
    [5, '0:05'],
    [12.5, '0:12.5'],
    [59.96, '1:00'],
    [600, '10:00'],
    [3723, '1:02:03'],
    [-1, '?'],
    [Number.NaN, '?'],
  ])('writes %d s as %s', (seconds, shown) => {
    expect(clockTime(seconds)).toBe(shown);
  });
});
