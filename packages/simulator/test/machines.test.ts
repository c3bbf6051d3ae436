import { describe, expect, it } from 'vitest';
import { SessionState } from '../src/state/session-state.js';
import { SESSION_HOSTS } from '../src/state/seed/session.js';

const session = () => new SessionState({ scenario: 'session', seed: 1, hostname: SESSION_HOSTS.director, dialect: 'spec' });

describe('director moves', () => {
  it('hands the director role to an actor, who gives its part to the old director', () => {
    const state = session();
    state.machines.moveDirector('127.0.0.3');
    const info = state.machines.sessionInfo();
    expect(info.director?.hostname).toBe('127.0.0.3');
    expect(info.director?.type).toBe('director');
    expect(info.actors.map((actor) => actor.hostname)).toEqual(['127.0.0.2', '127.0.0.4']);
  });

  it('refuses a machine that is part of a failover', () => {
    const state = session();
    state.failover.failoverMachine({ name: 'Actor 1' });
    expect(() => state.machines.moveDirector('127.0.0.5')).toThrow(/failover/);
  });

  it('refuses an unknown machine, naming the machines there are', () => {
    expect(() => session().machines.moveDirector('10.9.9.9')).toThrow(/127\.0\.0\.2, 127\.0\.0\.3/);
  });

  it('puts every machine of the session scenario on its loopback alias', () => {
    expect(session().machines.hostnames()).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']);
  });
});

describe('an understudy leaving the session', () => {
  it('is listed and health-checked no more', () => {
    const state = session();
    state.machines.removeUnderstudy('127.0.0.5');
    expect(state.machines.sessionInfo().understudies).toEqual([]);
    expect(state.machines.hostnames()).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.4']);
  });

  it('refuses the director, an actor and an understudy standing in for one, and loses nothing', () => {
    const state = session();
    expect(() => state.machines.removeUnderstudy('127.0.0.2')).toThrow(/No understudy "127\.0\.0\.2".*127\.0\.0\.5/);
    expect(() => state.machines.removeUnderstudy('127.0.0.3')).toThrow(/No understudy/);
    state.failover.failoverMachine({ name: 'Actor 1' });
    expect(() => state.machines.removeUnderstudy('127.0.0.5')).toThrow(/stands in for an actor/);
    expect(state.machines.hostnames()).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']);
  });
});
