import { describe, expect, it } from 'vitest';
import { InvalidInputError, MediaServer, originOf } from '../src/index.js';

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

  it.each([
    [5, 'the number 5'],
    [true, 'the boolean true'],
    [{ host: '10.0.0.5' }, 'the object {"host":"10.0.0.5"}'],
  ])('refuses the non-text host %j, naming it, instead of reading it as an address', (host, named) => {
    expect(() => originOf(host)).toThrow(InvalidInputError);
    expect(() => originOf(host)).toThrow(`The media-server host must be text, not ${named}:`);
  });

  it.each([undefined, null, '  '])('says no host was given for %j', (host) => {
    expect(() => originOf(host)).toThrow(/^No media-server host given/);
  });

  it('refuses a non-text host when a client is made, before any request', () => {
    expect(() => new MediaServer({ host: 5 as never })).toThrow(/must be text, not the number 5/);
  });
});
