import type { Faults } from './faults.js';
import type { LiveFaults, LiveStats } from './live/live-server.js';
import type { SessionMachineView } from './session/session-machines.js';
import type { SessionState } from './state/session-state.js';

export type StateSummary = ReturnType<typeof summarise>;

/** What the media-server port's control endpoint answers: the state summary, the live server's and (in `session`) the machines. */
export interface SimulatorSummary extends StateSummary {
  live: LiveStats & { faults: LiveFaults };
  machines?: SessionMachineView[];
}

/** What the control endpoint answers: the switches and the state a test usually wants to check at a glance. */
export function summarise(state: SessionState, faults: Faults, actions: readonly string[]) {
  return {
    scenario: state.scenario,
    dialect: state.words.dialect,
    seed: state.seed,
    projectOptions: [...state.projectOptions],
    speeds: state.transports.speeds(),
    loggedIn: state.hardware.loggedIn,
    latencyMs: faults.latencyMs,
    failNext: faults.failNext ?? null,
    stallBody: faults.stalledAnswers.list(),
    slowAnswer: faults.slowAnswers.summary,
    activeTransport: state.transports.active().map((transport) => transport.name),
    transports: state.transports.list().map(({ name, playmode, currentTrack }) => ({ name, playmode, currentTrack: currentTrack.name })),
    frozenPlayheads: state.transports.frozenPlayheads(),
    failedOver: state.machines.parts.flatMap(({ actor, standIn }) => (standIn ? [{ actor: actor.hostname, understudy: standIn.hostname }] : [])),
    routingPreset: state.failover.settings().currentPreset,
    captureInProgress: state.mixedReality.captureInProgress(),
    chassisPower: state.hardware.chassis.power,
    hardwareFaults: state.hardware.faultsOn(),
    silentSmcs: state.hardware.silentHostnames(),
    actions,
  };
}
