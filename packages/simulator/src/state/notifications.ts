import type { NotificationEntry } from '@stagelink/core';
import { machineOf } from './health.js';
import type { MachineRoster } from './machines.js';

export interface Notice {
  summary: string;
  detail: string;
}

/**
 * Notifications of every machine: the seeded ones, and on this machine (the director) one per actor that is
 * failed over, for as long as it is.
 */
export function notificationEntries(roster: MachineRoster, seeded: ReadonlyMap<string, readonly Notice[]>): NotificationEntry[] {
  return roster.all().map((machine) => {
    const notifications = (seeded.get(machine.uid) ?? []).map((notice) => ({ ...notice }));
    if (machine.uid === roster.local.uid) notifications.push(...failoverNotices(roster));
    return { machine: machineOf(machine), notifications };
  });
}

function failoverNotices(roster: MachineRoster): Notice[] {
  return roster.parts.flatMap(({ actor, standIn }) =>
    standIn ? [{ summary: `${actor.name} failed over`, detail: `${standIn.name} (${standIn.hostname}) stands in for ${actor.name} (${actor.hostname}).` }] : [],
  );
}
