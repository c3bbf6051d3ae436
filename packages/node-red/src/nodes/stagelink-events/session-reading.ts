import { isUnreachable, sessionMachines, type CallOptions, type HealthEntry, type MediaServer, type SessionInfo, type SessionMachine, type Transport } from '@stagelink/core';

/** One look at the show: each read succeeds or fails on its own. */
export interface SessionReading {
  session?: SessionInfo;
  health?: HealthEntry[];
  transports?: Transport[];
  /** The first failure of this look, if any. */
  problem?: Error;
  /** False only when no read reached the server: it is offline (an error the server answered means it is there). */
  reached: boolean;
}

/** Reads the session (always: it says which machines there are, and whether the server answers), health and transports as asked. */
export async function readSession(client: MediaServer, wants: { health: boolean; transports: boolean }, options: CallOptions): Promise<SessionReading> {
  const [session, health, transports] = await Promise.allSettled([
    client.status.session(options),
    wants.health ? client.status.health(options) : Promise.resolve(undefined),
    wants.transports ? client.transport.transports(options).then((answer) => answer.transports) : Promise.resolve(undefined),
  ]);
  const failures = [session, health, transports].flatMap((result) => (result.status === 'rejected' ? [toError(result.reason)] : []));
  const answered = [session, health, transports].some((result) => result.status === 'fulfilled' && result.value !== undefined);
  return {
    ...(session.status === 'fulfilled' ? { session: session.value } : {}),
    ...(health.status === 'fulfilled' && health.value ? { health: health.value } : {}),
    ...(transports.status === 'fulfilled' && transports.value ? { transports: transports.value } : {}),
    ...(failures[0] ? { problem: failures[0] } : {}),
    reached: answered || failures.some((error) => !isUnreachable(error)),
  };
}

/** The machines of the session, director first; those named in `wanted` (lower case) when it names any. */
export function machinesOf(session: SessionInfo, wanted: readonly string[]): SessionMachine[] {
  const all = sessionMachines(session).map(({ machine }) => machine);
  return wanted.length === 0 ? all : all.filter((machine) => wanted.includes(machine.hostname.toLowerCase()));
}

/**
 * The hostnames whose health is watched: the session's machines and every machine health reports, since a failed
 * actor leaves the session's list while its health still says it is offline.
 */
export function healthHostnames(machines: readonly SessionMachine[], entries: readonly HealthEntry[], wanted: readonly string[]): string[] {
  const reported = entries.map((entry) => entry.machine?.hostname).filter((hostname): hostname is string => typeof hostname === 'string' && hostname !== '');
  const byKey = new Map<string, string>();
  for (const hostname of [...machines.map((machine) => machine.hostname), ...reported]) {
    const key = hostname.toLowerCase();
    if ((wanted.length === 0 || wanted.includes(key)) && !byKey.has(key)) byKey.set(key, hostname);
  }
  return [...byKey.values()];
}

function toError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
