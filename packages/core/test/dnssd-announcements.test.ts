import { describe, expect, it } from 'vitest';
import { directorAmong, isApiAnnouncement, machinesAmong, type Announcement } from '../src/discovery/announcements.js';
import { numberedInstance } from '../src/protocol.js';

/** An announcement as a shipping machine on a venue network sends it: SRV target its mDNS name, A records beside it. */
function heard(type: string, instance: string, target: string, fields: Partial<Announcement> = {}): Announcement {
  return { type, instance, target, port: 80, addresses: [], txt: {}, ...fields };
}

const director = (fields: Partial<Announcement> = {}) =>
  heard('d3director', 'shows_opening_d3session', 'DIRECTOR01.local', { port: 7401, txt: { sessionname: 'shows/opening.d3session' }, ...fields });
const api = (instance: string, target: string, fields: Partial<Announcement> = {}) => heard('http', instance, target, fields);
const host = (hostname: string, txt: Announcement['txt'], fields: Partial<Announcement> = {}) =>
  heard('d3host', hostname, `${hostname}.local`, { txt, ...fields });

describe('the API announcement of a machine', () => {
  it('is d3api of _http._tcp under any number mDNS gave it, or the documents\' _svcapi._http under any name', () => {
    expect(isApiAnnouncement(api('d3api', 'A.local'))).toBe(true);
    expect(isApiAnnouncement(api('d3api (2)', 'A.local'))).toBe(true);
    expect(isApiAnnouncement(api('d3api (12)', 'A.local'))).toBe(true);
    expect(isApiAnnouncement(heard('svcapi._http', 'show API', 'A.local'))).toBe(true);
  });

  it('is not any other web server of the network', () => {
    expect(isApiAnnouncement(api('printer', 'A.local'))).toBe(false);
    expect(isApiAnnouncement(api('d3api2', 'A.local'))).toBe(false);
    expect(isApiAnnouncement(api('my d3api (2)', 'A.local'))).toBe(false);
    expect(isApiAnnouncement(heard('d3host', 'd3api', 'A.local'))).toBe(false);
  });

  it('numbers the second and later announcements of one name as mDNS does', () => {
    expect([1, 2, 3].map((n) => numberedInstance('d3api', n))).toEqual(['d3api', 'd3api (2)', 'd3api (3)']);
  });
});

describe('the director among the announcements', () => {
  it('takes a shipping director\'s url from its d3api announcement (address and port), and its session from sessionName', () => {
    const found = directorAmong([director(), api('d3api', 'DIRECTOR01.local', { port: 8080, addresses: ['10.0.0.5'] })]);
    expect(found).toEqual({ director: { hostname: 'DIRECTOR01', url: 'http://10.0.0.5:8080', session: 'shows/opening.d3session' }, named: true });
  });

  it('reads the session from session where sessionName is absent, and has none where neither is', () => {
    const apiHeard = api('d3api', 'DIRECTOR01.local', { addresses: ['10.0.0.5'] });
    expect(directorAmong([director({ txt: { session: 'Show A' } }), apiHeard])?.director.session).toBe('Show A');
    expect(directorAmong([director({ txt: { sessionname: true } }), apiHeard])?.director).not.toHaveProperty('session');
  });

  it('needs the director machine\'s own API: another machine\'s d3api does not make a director', () => {
    const actorApi = api('d3api', 'ACTOR01.local', { addresses: ['10.0.0.11'] });
    expect(directorAmong([director(), actorApi])).toBeUndefined();
    const found = directorAmong([director(), actorApi, api('d3api (2)', 'director01.local.', { addresses: ['10.0.0.5'] })]);
    expect(found?.director.url).toBe('http://10.0.0.5:80');
  });

  it('treats the d3api (N) of several interfaces of one host as one machine, at the first usable address', () => {
    const found = directorAmong([
      director(),
      api('d3api', 'DIRECTOR01.local', { addresses: ['fe80::1'] }),
      api('d3api (2)', 'DIRECTOR01.local', { addresses: ['fe80::2', '192.168.1.5'] }),
      api('d3api (3)', 'DIRECTOR01.local', { addresses: ['10.0.0.5'] }),
    ]);
    expect(found?.director.url).toBe('http://192.168.1.5:80');
  });

  it('takes the address an announcement came from before the A records of a director on several networks', () => {
    const found = directorAmong([director(), api('d3api', 'DIRECTOR01.local', { addresses: ['192.168.99.5', '10.0.0.5'], from: '10.0.0.5' })]);
    expect(found?.director.url).toBe('http://10.0.0.5:80');
  });

  it('falls back to the address the announcement came from, then to the mDNS name', () => {
    expect(directorAmong([director(), api('d3api', 'DIRECTOR01.local.', { from: '10.0.0.5' })])?.director.url).toBe('http://10.0.0.5:80');
    expect(directorAmong([director(), api('d3api', 'DIRECTOR01.local.')])?.director.url).toBe('http://DIRECTOR01.local:80');
  });

  it('names a director announced by its address after the _d3host of that address, and waits for it', () => {
    const atAddress = director({ target: '127.0.0.2' });
    const apiAtAddress = api('d3api', '127.0.0.2', { port: 38001 });
    const unnamed = directorAmong([atAddress, apiAtAddress]);
    expect(unnamed?.director.hostname).toBe('127.0.0.2');
    expect(unnamed?.named).toBe(false);
    const found = directorAmong([atAddress, apiAtAddress, host('DIRECTOR01', {}, { target: '127.0.0.2' })]);
    expect(found).toEqual({ director: { hostname: 'DIRECTOR01', url: 'http://127.0.0.2:38001', session: 'shows/opening.d3session' }, named: true });
  });

  it('finds a director announced with the documents\' names, session in TXT session', () => {
    const found = directorAmong([
      heard('svcdirector', 'Show director', '127.0.0.2', { txt: { session: 'Show A' } }),
      heard('svcapi._http', 'Show API', '127.0.0.2', { port: 38001 }),
    ]);
    expect(found).toEqual({ director: { hostname: '127.0.0.2', url: 'http://127.0.0.2:38001', session: 'Show A' }, named: true });
  });
});

describe('the machines among the announcements', () => {
  it('lists each _d3host once, by hostname, with its announced role, version, project and API url', () => {
    const machines = machinesAmong([
      host('ACTOR01', { recentrole: 'actor', versionnumber: '30.8.1.123', recentproject: 'shows/opening.d3session', branch: 'r30.8', gateway: '10.0.0.1' }),
      host('DIRECTOR01', { recentrole: 'director', versionnumber: '30.8.1.123' }),
      host('DIRECTOR01 (2)', { recentrole: 'director' }, { target: 'director01.local.' }),
      api('d3api', 'DIRECTOR01.local', { addresses: ['10.0.0.5'] }),
      api('d3api (2)', 'DIRECTOR01.local', { addresses: ['10.0.1.5'] }),
      api('printer', 'ACTOR01.local', { addresses: ['10.0.0.11'] }),
    ]);
    expect(machines).toEqual([
      { hostname: 'ACTOR01', role: 'actor', version: '30.8.1.123', project: 'shows/opening.d3session', branch: 'r30.8' },
      { hostname: 'DIRECTOR01', role: 'director', version: '30.8.1.123', url: 'http://10.0.0.5:80' },
    ]);
  });

  it('lists no machine for an API or director announcement alone (builds before _d3host)', () => {
    expect(machinesAmong([director(), api('d3api', 'DIRECTOR01.local', { addresses: ['10.0.0.5'] })])).toEqual([]);
  });
});
