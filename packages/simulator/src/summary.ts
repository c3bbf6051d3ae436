import type { Faults } from './faults.js';
import type { SessionState } from './state/session-state.js';

/** What the control endpoint answers: the switches and the state a test usually wants to check at a glance. */
export function summarise(state: SessionState, faults: Faults, actions: readonly string[]): Record<string, unknown> {
  return {
    scenario: state.scenario,
    dialect: state.words.dialect,
    seed: state.seed,
    projectOptions: [...state.projectOptions],
    speeds: state.transports.speeds(),
    loggedIn: state.hardware.loggedIn,
    latencyMs: faults.latencyMs,
    failNext: faults.failNext ?? null,
    activeTransport: state.transports.active().map((transport) => transport.name),
    transports: state.transports.list().map(({ name, playmode, currentTrack }) => ({ name, playmode, currentTrack: currentTrack.name })),
    failedOver: state.machines.parts.flatMap(({ actor, standIn }) => (standIn ? [{ actor: actor.hostname, understudy: standIn.hostname }] : [])),
    routingPreset: state.failover.settings().currentPreset,
    captureInProgress: state.mixedReality.captureInProgress(),
    chassisPower: state.hardware.chassis.power,
    actions,
  };
}
