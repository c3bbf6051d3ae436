import { describe, expect, it } from 'vitest';
import { InvalidInputError, originOf } from '../src/index.js';

describe('originOf', () => {
  it.each([
    ['10.0.0.5', 'http://10.0.0.5'],
    ['media-1:8080', 'http://media-1:8080'],
    ['http://10.0.0.5', 'http://10.0.0.5'],
    ['http://10.0.0.5:80', 'http://10.0.0.5'],
    ['http://10.0.0.5:9000/', 'http://10.0.0.5:9000'],
    ['  [::1]:8080 ', 'http://[::1]:8080'],
  ])('reads %s as %s', (host, origin) => {
    expect(originOf(host)).toBe(origin);
  });

  it.each(['', 'ftp://x', 'http://'])('refuses %j with a clear error', (host) => {
    expect(() => originOf(host)).toThrow(InvalidInputError);
  });
});
