import { describe, expect, it } from 'vitest';
import { StatusCode } from '../src/state/refusal.js';
import { demoState, refusalOf } from './support/demo-state.js';

const actor1 = { name: 'Actor 1' };

describe('failover', () => {
  it('an understudy takes over a failed actor: the session lists it in the actor\'s place', () => {
    const state = demoState();
    const understudy = state.machines.sessionInfo().understudies[0];

    state.failover.failoverMachine(actor1);

    const session = state.machines.sessionInfo();
    expect(session.actors.map((machine) => machine.hostname)).toEqual(['understudy-1', 'actor-2']);
    expect(session.actors[0]).toEqual(understudy);
    expect(session.understudies).toEqual([]);
  });

  it('health shows the understudy running as the failed actor, and the actor offline', () => {
    const state = demoState();
    state.failover.failoverMachine(actor1);

    const health = state.health();
    const understudy = health.find((entry) => entry.machine.hostname === 'understudy-1');
    const actor = health.find((entry) => entry.machine.hostname === 'actor-1');
    expect(understudy?.runningAsMachine.hostname).toBe('actor-1');
    expect(actor?.status.states.every((entry) => entry.severity === 'offline')).toBe(true);
    expect(state.notifications()[0]?.notifications).toContainEqual(expect.objectContaining({ summary: 'Actor 1 failed over' }));
  });

  it('tells live update which machine has taken over a failed one', () => {
    const state = demoState();
    const understudyUid = state.machines.understudies[0]?.uid ?? '';
    expect(state.failover.hasTakenOverFailedMachine(understudyUid)).toBe(false);
    state.failover.failoverMachine(actor1);
    expect(state.failover.hasTakenOverFailedMachine(understudyUid)).toBe(true);
    expect(state.failover.hasTakenOverFailedMachine('42')).toBeUndefined();
  });

  it('switches routing to the failover preset until default routing is applied, even after a restore', () => {
    const state = demoState();
    state.failover.failoverMachine(actor1);
    expect(state.failover.settings().currentPreset).toBe('Failover routing');

    state.failover.restoreMachine(actor1);
    expect(state.machines.sessionInfo().actors.map((machine) => machine.hostname)).toEqual(['actor-1', 'actor-2']);
    expect(state.machines.sessionInfo().understudies.map((machine) => machine.hostname)).toEqual(['understudy-1']);
    expect(state.failover.settings().currentPreset).toBe('Failover routing');

    state.failover.applyDefaultRouting();
    expect(state.failover.settings()).toEqual({ timeout: 10, normalPreset: 'Default routing', currentPreset: 'Default routing' });
  });

  it('restores an actor named through the understudy standing in for it', () => {
    const state = demoState();
    state.failover.failoverMachine(actor1);
    state.failover.restoreMachine({ name: 'Understudy 1' });
    expect(state.machines.partOf(state.machines.parts[0]?.actor.uid ?? '')?.standIn).toBeUndefined();
  });

  it('refuses a second failover when no understudy is free', () => {
    const state = demoState();
    state.failover.failoverMachine(actor1);
    const refusal = refusalOf(() => state.failover.failoverMachine({ name: 'Actor 2' }));
    expect(refusal.code).toBe(StatusCode.resourceExhausted);
    expect(refusal.message).toContain('"Understudy 1" (understudy-1) stands in for "Actor 1"');
  });

  it('refuses the director, unknown machines, double failovers and restoring a running actor', () => {
    const state = demoState();
    expect(refusalOf(() => state.failover.failoverMachine({ name: 'Director' })).message).toContain('the director');
    expect(refusalOf(() => state.failover.failoverMachine({ uid: '1' })).code).toBe(StatusCode.notFound);
    expect(refusalOf(() => state.failover.restoreMachine(actor1)).message).toContain('has not failed over');
    state.failover.failoverMachine(actor1);
    expect(refusalOf(() => state.failover.failoverMachine(actor1)).message).toContain('already failed over');
  });

  it('maps each actor to its understudy', () => {
    expect(demoState().failover.understudyTargets()).toEqual({ 'actor-1': 'understudy-1', 'actor-2': 'understudy-1' });
  });

  it('a solo machine has no director, no actors and nothing to fail over', () => {
    const state = demoState({ scenario: 'solo' });
    const session = state.machines.sessionInfo();
    expect(session.isRunningSolo).toBe(true);
    expect('director' in session).toBe(false);
    expect(refusalOf(() => state.failover.failoverMachine({ name: 'Media server' })).message).toContain('runs solo');
  });
});

describe('gui mode', () => {
  it('sets the mode of a machine; hidden also hides the GUI', () => {
    const state = demoState();
    state.machines.setGuiMode(actor1, 'hidden');
    expect(state.machines.sessionInfo().actors[0]).toMatchObject({ guiMode: 'hidden', guiVisible: false });
    expect(refusalOf(() => state.machines.setGuiMode(actor1, 'fullscreen')).code).toBe(StatusCode.invalidArgument);
  });
});
