import { describe, expect, it } from 'vitest';
import { directorInstanceName, servicesOf, sessionToAnnounce, type AnnouncedSession } from '../src/dnssd/announcements.js';
import { SessionState } from '../src/state/session-state.js';

const session: AnnouncedSession = {
  session: 'D:/Shows/opening/opening.show',
  director: 'DIRECTOR01',
  machines: [
    { hostname: 'DIRECTOR01', address: '127.0.0.2', role: 'director' },
    { hostname: 'ACTOR01', address: '127.0.0.3', role: 'actor' },
  ],
  port: 38001,
  versionNumber: '31.2.1.204815',
  branch: 'r31.2',
};

const summary = (dialect: 'spec' | 'r34', announced: AnnouncedSession) =>
  servicesOf(dialect, announced).map(({ type, name, host, port, txt }) => ({ type, name, host, port, txt }));

describe('what the simulator announces over DNS-SD', () => {
  it('in the r34 dialect: _d3host per machine, d3api per interface of _http._tcp, and _d3director for the director', () => {
    expect(summary('r34', session)).toEqual([
      {
        type: 'd3host',
        name: 'DIRECTOR01',
        host: '127.0.0.2',
        port: 38001,
        txt: { recentProject: session.session, recentRole: 'director', versionNumber: '31.2.1.204815', branch: 'r31.2' },
      },
      { type: 'http', name: 'd3api', host: '127.0.0.2', port: 38001, txt: undefined },
      { type: 'http', name: 'd3api (2)', host: '127.0.0.2', port: 38001, txt: undefined },
      { type: 'd3director', name: 'D__Shows_opening_opening_show', host: '127.0.0.2', port: 38001, txt: { sessionName: session.session } },
      { type: 'd3host', name: 'ACTOR01', host: '127.0.0.3', port: 38001, txt: expect.objectContaining({ recentRole: 'actor' }) as unknown },
      { type: 'http', name: 'd3api (3)', host: '127.0.0.3', port: 38001, txt: undefined },
    ]);
  });

  it('in the r34 dialect, no _d3director for a machine that runs solo', () => {
    const solo = { ...session, director: undefined, machines: [{ hostname: 'MEDIASERVER01', address: '127.0.0.1', role: 'solo' }] };
    expect(summary('r34', solo).map(({ type, name }) => `${type} ${name}`)).toEqual(['d3host MEDIASERVER01', 'http d3api']);
  });

  it('in the spec dialect: the documents\' director and API names for the director alone', () => {
    expect(summary('spec', session)).toEqual([
      { type: 'svcdirector', name: `${session.session} director`, host: '127.0.0.2', port: 38001, txt: { session: session.session } },
      { type: 'svcapi._http', name: `${session.session} API`, host: '127.0.0.2', port: 38001, txt: undefined },
    ]);
  });

  it('names a director after its session with special characters as _', () => {
    expect(directorInstanceName('folder/projectname.d3session')).toBe('folder_projectname_d3session');
  });

  it('announces this process alone outside the session scenario, at the address it listens on', () => {
    const state = new SessionState({ scenario: 'demo', seed: 1, hostname: '127.0.0.9', dialect: 'r34' });
    const announced = sessionToAnnounce(state, 8080, []);
    expect(announced).toMatchObject({ session: state.project.projectPath, director: 'DIRECTOR01', port: 8080 });
    expect(announced.machines).toEqual([{ hostname: 'DIRECTOR01', address: '127.0.0.9', role: 'director' }]);
  });
});
