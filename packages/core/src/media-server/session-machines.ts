import type { SessionInfo, SessionMachine } from './types.js';

export type MachineRole = 'director' | 'actor' | 'understudy';

export interface SessionMember {
  machine: SessionMachine;
  role: MachineRole;
}

/**
 * Every machine a session lists, the director first, each with its role. An entry without a hostname (a real
 * server can list an empty slot) is left out: nothing can be addressed or shown by it.
 */
export function sessionMachines(session: SessionInfo): SessionMember[] {
  const members: SessionMember[] = [
    ...(session.director ? [{ machine: session.director, role: 'director' as const }] : []),
    ...(session.actors ?? []).map((machine) => ({ machine, role: 'actor' as const })),
    ...(session.understudies ?? []).map((machine) => ({ machine, role: 'understudy' as const })),
  ];
  return members.filter(({ machine }) => typeof machine?.hostname === 'string' && machine.hostname !== '');
}
