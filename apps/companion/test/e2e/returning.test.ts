/**
 * A transport or a machine that leaves the session's lists and comes back (a transport removed and re-added in the
 * project, a machine leaving the session) shows its values again (both dialects). Companion's host deletes the
 * value of an id the module stops defining and shows '' when it is defined again: a value that did not change in
 * between must be sent again all the same.
 */
import { variableIdOf } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { describe, expect } from 'vitest';
import { withReadyModule } from './session.js';

/**
 * Hides a transport from the simulator's transports list until the answered function is called: as a transport
 * removed from the project and added back. The simulator has no control for it; its list is read per request.
 */
function hideTransport(sim: Simulator, name: string): () => void {
  const transports = sim.state.transports;
  const list = transports.list.bind(transports);
  transports.list = () => list().filter((transport) => transport.name !== name);
  return () => {
    transports.list = list;
  };
}

/** Hides a machine from the session the simulator answers, as a machine leaving it, until the answer is called. */
function hideMachine(sim: Simulator, hostname: string): () => void {
  const machines = sim.state.machines;
  const sessionInfo = machines.sessionInfo.bind(machines);
  machines.sessionInfo = () => {
    const info = sessionInfo();
    const kept = <T extends { hostname: string }>(list: T[]): T[] => list.filter((machine) => machine.hostname !== hostname);
    return { ...info, actors: kept(info.actors), understudies: kept(info.understudies) };
  };
  return () => {
    machines.sessionInfo = sessionInfo;
  };
}

describe('values after a return', () => {
  withReadyModule('shows a transport removed from the project and added back with its playmode and track, never blank', async ({ sim, host }) => {
    const transport = sim.state.transports.list()[0];
    if (!transport) throw new Error('the session has a transport');
    const id = variableIdOf(transport.name);
    const playmode = `transport_${id}_playmode`;
    const track = `transport_${id}_track`;
    await host.waitFor(() => typeof host.variables.get(playmode) === 'string' && host.variables.get(playmode) !== '', `${playmode} shown`);
    const before = { playmode: host.variables.get(playmode), track: host.variables.get(track) };
    expect(before.track).toBe(transport.currentTrack.name);

    const show = hideTransport(sim, transport.name);
    await host.waitFor(() => !(playmode in host.variableDefinitions), `${playmode} no longer defined`, 20_000);
    expect(host.variables.has(playmode)).toBe(false);
    show();

    await host.waitFor(() => playmode in host.variableDefinitions, `${playmode} defined again`, 20_000);
    await host.waitFor(() => host.variables.get(playmode) === before.playmode && host.variables.get(track) === before.track, `${playmode} and ${track} shown again`, 20_000);
  });

  withReadyModule('shows a machine that left the session and came back with its role, never blank', async ({ sim, host }) => {
    const actor = sim.state.machines.sessionInfo().actors[0];
    if (!actor) throw new Error('the session has an actor');
    const role = `machine_${variableIdOf(actor.name)}_role`;
    await host.waitFor(() => host.variables.get(role) === 'actor', `${role} actor`);

    const back = hideMachine(sim, actor.hostname);
    await host.waitFor(() => !(role in host.variableDefinitions), `${role} no longer defined`, 20_000);
    back();

    await host.waitFor(() => role in host.variableDefinitions, `${role} defined again`, 20_000);
    await host.waitFor(() => host.variables.get(role) === 'actor', `${role} shown again`, 20_000);
  });
});
