import { describe, expect, it } from 'vitest';
import { fullJitter } from '../src/protocol.js';

describe('fullJitter', () => {
  it('grows the ceiling exponentially up to the cap', () => {
    const top = () => 0.999999;
    expect(fullJitter(0, 100, 30_000, top)).toBe(99);
    expect(fullJitter(3, 100, 30_000, top)).toBe(799);
    expect(fullJitter(20, 100, 30_000, top)).toBe(29_999);
  });

  it('can wait not at all, so many clients spread over the whole window', () => {
    expect(fullJitter(5, 100, 30_000, () => 0)).toBe(0);
  });
});
