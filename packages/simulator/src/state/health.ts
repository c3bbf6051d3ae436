import type { HealthEntry, HealthState, Machine, SessionMachine } from '@stagelink/core';
import type { MachineRoster } from './machines.js';

/** What a running machine reports of itself; seeded per machine. */
export interface MachineReadings {
  averageFPS: number;
  videoDroppedFrames: number;
  videoMissedFrames: number;
  states: HealthState[];
}

export const HEALTH_CATEGORIES = ['Connection', 'Output', 'Genlock', 'Devices'] as const;

/**
 * Health of every configured machine. The spec leaves severity transitions open; the simulator's are: a failed
 * actor reports every category `offline`, and the understudy standing in for it reports `runningAsMachine` as
 * that actor plus a `Failover` state.
 */
export function healthEntries(roster: MachineRoster, readings: ReadonlyMap<string, MachineReadings>): HealthEntry[] {
  return roster.all().map((machine) => {
    const failedOverTo = roster.partOf(machine.uid)?.standIn;
    const standingInFor = roster.partPlayedBy(machine.uid)?.actor;
    return {
      machine: machineOf(machine),
      runningAsMachine: machineOf(standingInFor ?? machine),
      status: failedOverTo ? offlineStatus(failedOverTo) : runningStatus(readings.get(machine.uid), standingInFor),
    };
  });
}

function runningStatus(readings: MachineReadings | undefined, standingInFor: SessionMachine | undefined): HealthEntry['status'] {
  const base = readings ?? { averageFPS: 60, videoDroppedFrames: 0, videoMissedFrames: 0, states: [] };
  const states = base.states.map((state) => ({ ...state }));
  if (standingInFor) {
    states.push({ name: 'Failover', detail: `Standing in for ${standingInFor.name}`, category: 'Connection', severity: 'ok' });
  }
  return { ...base, states };
}

function offlineStatus(standIn: SessionMachine): HealthEntry['status'] {
  return {
    averageFPS: 0,
    videoDroppedFrames: 0,
    videoMissedFrames: 0,
    states: HEALTH_CATEGORIES.map((category) => ({
      name: category,
      detail: `Failed over to ${standIn.name}`,
      category,
      severity: 'offline',
    })),
  };
}

export function machineOf({ uid, name, hostname }: SessionMachine): Machine {
  return { uid, name, hostname };
}
