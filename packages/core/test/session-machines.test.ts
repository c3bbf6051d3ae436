import { describe, expect, it } from 'vitest';
import { sessionMachines, type SessionInfo, type SessionMachine } from '../src/index.js';

const machine = (hostname: string): SessionMachine => ({ uid: `uid-${hostname}`, name: hostname, hostname, type: 'pc', guiMode: 'normal', guiVisible: true });

describe('sessionMachines', () => {
  it('lists the director first, then actors and understudies, each with its role', () => {
    const session: SessionInfo = { isRunningSolo: false, isDirectorDedicated: true, director: machine('DIRECTOR01'), actors: [machine('ACTOR01'), machine('ACTOR02')], understudies: [machine('UNDERSTUDY01')] };
    expect(sessionMachines(session).map(({ machine: { hostname }, role }) => `${hostname} ${role}`)).toEqual([
      'DIRECTOR01 director',
      'ACTOR01 actor',
      'ACTOR02 actor',
      'UNDERSTUDY01 understudy',
    ]);
  });

  it('lists a solo machine with no director, and leaves out entries without a hostname', () => {
    const session = { isRunningSolo: true, isDirectorDedicated: false, actors: [machine(''), machine('SOLO01')], understudies: [{} as SessionMachine] } as SessionInfo;
    expect(sessionMachines(session).map(({ machine: { hostname } }) => hostname)).toEqual(['SOLO01']);
  });
});
