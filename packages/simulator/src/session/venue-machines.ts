import type { MachineRoster } from '../state/machines.js';
import type { MachineRole } from './session-machines.js';

/**
 * The machines of a `venue` session as the ready line lists them: hostname and role, no address (only the
 * director is a server; it answers for the others).
 */
export function venueMachines(roster: MachineRoster): { hostname: string; role: MachineRole }[] {
  const session = roster.sessionInfo();
  return [
    ...(session.director ? [{ hostname: session.director.hostname, role: 'director' as const }] : []),
    ...session.actors.map(({ hostname }) => ({ hostname, role: 'actor' as const })),
    ...session.understudies.map(({ hostname }) => ({ hostname, role: 'understudy' as const })),
  ];
}
