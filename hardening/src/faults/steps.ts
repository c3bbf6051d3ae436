import type { ControlRequest } from '@stagelink/simulator';
import type { FaultTargets } from './targets.js';

/** Which of the two servers the commands of a step go to. */
export type FaultServer = 'machine' | 'session';

export interface FaultStep {
  name: string;
  server: FaultServer;
  /** How long commands keep going while the fault holds. */
  holdMs: number;
  /**
   * True when the live stream is down for seconds, so every front end must show it offline. A socket that is
   * dropped and reconnects at once (dropped sockets, a director move) may be back before a key's next frame
   * (4 a second): showing the new live value then is right, so those steps do not require it.
   */
  dropsLive: boolean;
  /** True when the director role moves to another machine: a front end must find it by its hostname. */
  movesDirector?: boolean;
  start(targets: FaultTargets): Promise<void>;
  end(targets: FaultTargets): Promise<void>;
}

const nothing = (): Promise<void> => Promise.resolve();

/** Sends a control request to the simulator `server` names. */
function control(targets: FaultTargets, server: FaultServer, body: ControlRequest): Promise<void> {
  return server === 'machine' ? targets.machineControl(body) : targets.sessionControl(body);
}

/** A fault that a control request turns on when the step starts and another turns off when it ends. */
function held(server: FaultServer, on: ControlRequest, off: ControlRequest): Pick<FaultStep, 'server' | 'start' | 'end'> {
  return { server, start: (t) => control(t, server, on), end: (t) => control(t, server, off) };
}

/** A switch of the machine's live server, on while the step holds; the open sockets are dropped so clients meet it. */
function liveServerSwitch(action: 'refuseUpgrades' | 'stallUpgrades'): Pick<FaultStep, 'server' | 'start' | 'end'> {
  const fault = held('machine', { action, on: true }, { action, on: false });
  return { ...fault, start: (t) => fault.start(t).then(() => t.machineControl({ action: 'dropSockets' })) };
}

/**
 * The faults of the simulator, in the order they are played. `pauseMs` is how long the live server hangs: past
 * two heartbeats (20 s) the client must notice on its own; shorter, the stream just resumes.
 */
export function faultSequence(pauseMs: number): FaultStep[] {
  const director = (targets: FaultTargets): string => targets.session.machines().find((machine) => machine.role === 'director')?.hostname ?? '';
  const runningActor = (targets: FaultTargets): string => targets.session.machines().find((machine) => machine.role === 'actor' && machine.running)?.hostname ?? '';
  const failing = (status: number, count: number): ControlRequest => ({ action: 'failNext', status, count });
  let stopped = '';
  return [
    { name: '5xx burst', holdMs: 2000, dropsLive: false, ...held('machine', failing(503, 15), failing(503, 0)) },
    { name: '5xx burst on the director', holdMs: 2000, dropsLive: false, ...held('session', failing(500, 15), failing(500, 0)) },
    { name: 'stall (7 s latency)', holdMs: 3000, dropsLive: false, ...held('machine', { action: 'latency', ms: 7000 }, { action: 'latency', ms: 0 }) },
    {
      name: `hung live server (${Math.round(pauseMs / 1000)} s pause)`,
      holdMs: pauseMs,
      dropsLive: pauseMs > 21_000,
      ...held('machine', { action: 'pause', on: true }, { action: 'pause', on: false }),
    },
    { name: 'dropped sockets', server: 'machine', holdMs: 1500, dropsLive: false, start: (t) => t.machineControl({ action: 'dropSockets' }), end: nothing },
    { name: 'refused upgrades', holdMs: 3000, dropsLive: true, ...liveServerSwitch('refuseUpgrades') },
    { name: 'stalled upgrades', holdMs: 6500, dropsLive: true, ...liveServerSwitch('stallUpgrades') },
    { name: 'malformed frame', server: 'machine', holdMs: 1000, dropsLive: false, start: (t) => t.machineControl({ action: 'malformedFrame' }), end: nothing },
    { name: 'director change', server: 'session', holdMs: 4000, dropsLive: false, movesDirector: true, start: (t) => t.sessionControl({ action: 'moveDirector', to: runningActor(t) }), end: nothing },
    {
      name: 'director machine stops',
      server: 'session',
      holdMs: 5000,
      dropsLive: false,
      movesDirector: true,
      start: async (t) => {
        stopped = director(t);
        await t.sessionControl({ action: 'stopMachine', hostname: stopped });
      },
      end: (t) => t.sessionControl({ action: 'startMachine', hostname: stopped }),
    },
    { name: 'server restart', server: 'machine', holdMs: 3000, dropsLive: true, start: (t) => t.machine.stop(), end: (t) => t.machine.start() },
  ];
}
