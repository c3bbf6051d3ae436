import { describe, expect, it } from 'vitest';
import { StagelinkError, type SessionInfo } from '../src/index.js';
import { directorFrom, machineOrigin } from '../src/discovery/query.js';

describe('machines named by a session answer (hardening)', () => {
  const origin = 'http://127.0.0.2:8080';

  it('reaches a listed machine on the port of the machine that listed it', () => {
    expect(machineOrigin(origin, '127.0.0.3')).toBe('http://127.0.0.3:8080');
    expect(machineOrigin(origin, 'Actor-1')).toBe('http://actor-1:8080');
  });

  it('follows no hostname that is missing, not text, or that a URL would turn into another machine', () => {
    for (const hostname of [undefined, null, 5, {}, '', ' ', '5', 'a b', 'a/b', '..', '-x', 'x:1', '[::1]']) {
      expect(machineOrigin(origin, hostname)).toBeUndefined();
    }
  });

  it('refuses a director without a usable hostname rather than follow it to "undefined"', () => {
    const session = { isRunningSolo: false, director: { uid: '1', name: 'D', hostname: 5 }, actors: [], understudies: [] } as unknown as SessionInfo;
    expect(() => directorFrom(origin, session)).toThrow(StagelinkError);
    expect(() => directorFrom(origin, session)).toThrow(/director without a usable hostname \(5\)/);
  });
});

describe('host maps', () => {
  it('reads HOSTNAME=address per line or comma, and maps a session hostname in any case', async () => {
    const { parseHostMap } = await import('../src/index.js');
    const hosts = parseHostMap('DIRECTOR01=10.0.0.5\n# the actors\nACTOR01 = 10.0.0.6:8080, ');
    expect(hosts).toEqual({ DIRECTOR01: '10.0.0.5', ACTOR01: '10.0.0.6:8080' });
    expect(machineOrigin('http://10.0.0.9:80', 'director01', hosts)).toBe('http://10.0.0.5');
    expect(machineOrigin('http://10.0.0.9:8081', 'Actor01', hosts)).toBe('http://10.0.0.6:8080');
    expect(() => parseHostMap('DIRECTOR01 10.0.0.5')).toThrow(/not HOSTNAME=address/);
  });
});
