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
  start(targets: FaultTargets): Promise<void>;
  end(targets: FaultTargets): Promise<void>;
}

const nothing = (): Promise<void> => Promise.resolve();

/**
 * The faults of the simulator, in the order they are played. `pauseMs` is how long the live server hangs: past
 * two heartbeats (20 s) the client must notice on its own; shorter, the stream just resumes.
 */
export function faultSequence(pauseMs: number): FaultStep[] {
  const director = (targets: FaultTargets): string => targets.session.machines().find((machine) => machine.role === 'director')?.hostname ?? '';
  const runningActor = (targets: FaultTargets): string => targets.session.machines().find((machine) => machine.role === 'actor' && machine.running)?.hostname ?? '';
  let stopped = '';
  return [
    {
      name: '5xx burst',
      server: 'machine',
      holdMs: 2000,
      dropsLive: false,
      start: (t) => t.machineControl({ action: 'failNext', status: 503, count: 15 }),
      end: (t) => t.machineControl({ action: 'failNext', status: 503, count: 0 }),
    },
    {
      name: '5xx burst on the director',
      server: 'session',
      holdMs: 2000,
      dropsLive: false,
      start: (t) => t.sessionControl({ action: 'failNext', status: 500, count: 15 }),
      end: (t) => t.sessionControl({ action: 'failNext', status: 500, count: 0 }),
    },
    {
      name: 'stall (7 s latency)',
      server: 'machine',
      holdMs: 3000,
      dropsLive: false,
      start: (t) => t.machineControl({ action: 'latency', ms: 7000 }),
      end: (t) => t.machineControl({ action: 'latency', ms: 0 }),
    },
    {
      name: `hung live server (${Math.round(pauseMs / 1000)} s pause)`,
      server: 'machine',
      holdMs: pauseMs,
      dropsLive: pauseMs > 21_000,
      start: (t) => t.machineControl({ action: 'pause', on: true }),
      end: (t) => t.machineControl({ action: 'pause', on: false }),
    },
    { name: 'dropped sockets', server: 'machine', holdMs: 1500, dropsLive: false, start: (t) => t.machineControl({ action: 'dropSockets' }), end: nothing },
    {
      name: 'refused upgrades',
      server: 'machine',
      holdMs: 3000,
      dropsLive: true,
      start: async (t) => {
        await t.machineControl({ action: 'refuseUpgrades', on: true });
        await t.machineControl({ action: 'dropSockets' });
      },
      end: (t) => t.machineControl({ action: 'refuseUpgrades', on: false }),
    },
    {
      name: 'stalled upgrades',
      server: 'machine',
      holdMs: 6500,
      dropsLive: true,
      start: async (t) => {
        await t.machineControl({ action: 'stallUpgrades', on: true });
        await t.machineControl({ action: 'dropSockets' });
      },
      end: (t) => t.machineControl({ action: 'stallUpgrades', on: false }),
    },
    { name: 'malformed frame', server: 'machine', holdMs: 1000, dropsLive: false, start: (t) => t.machineControl({ action: 'malformedFrame' }), end: nothing },
    {
      name: 'director change',
      server: 'session',
      holdMs: 4000,
      dropsLive: false,
      start: (t) => t.sessionControl({ action: 'moveDirector', to: runningActor(t) }),
      end: nothing,
    },
    {
      name: 'director machine stops',
      server: 'session',
      holdMs: 5000,
      dropsLive: false,
      start: async (t) => {
        stopped = director(t);
        await t.sessionControl({ action: 'stopMachine', hostname: stopped });
      },
      end: (t) => t.sessionControl({ action: 'startMachine', hostname: stopped }),
    },
    { name: 'server restart', server: 'machine', holdMs: 3000, dropsLive: true, start: (t) => t.machine.stop(), end: (t) => t.machine.start() },
  ];
}
