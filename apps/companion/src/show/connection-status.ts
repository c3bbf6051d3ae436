/**
 * Companion's connection status, honestly: `ok` only while the server answers every read and the live stream is
 * up. A machine that answers small requests while large answers stall (MTU, jumbo frames) is reachable: a warning
 * that says so, never "disconnected".
 */
import { InstanceStatus } from '@companion-module/base';
import { isUnreachable, type LinkDown, type LinkStatus, reasonOf, StagelinkError } from '@stagelink/core';
import type { PollState } from './poll.js';

export interface ConnectionStatus {
  status: InstanceStatus;
  message: string | null;
}

export interface StatusInputs {
  reads: readonly PollState<unknown>[];
  linkDown: LinkDown | undefined;
  live: LinkStatus;
  liveWasUp: boolean;
}

/** The words for a machine that answers, but whose large answers never arrive. */
export const MTU_MESSAGE = 'Reachable, but large answers do not arrive (MTU or jumbo frames?)';

export function connectionStatus({ reads, linkDown, live, liveWasUp }: StatusInputs): ConnectionStatus {
  const failures = reads.flatMap((read) => (read.kind === 'failed' ? [read.error] : []));
  const unreachable = failures.find((error) => isUnreachable(error));
  if (unreachable !== undefined) return { status: InstanceStatus.Disconnected, message: reasonOf(unreachable) };
  if (linkDown) return { status: InstanceStatus.Disconnected, message: linkDown.reason };
  const stalled = failures.find((error) => error instanceof StagelinkError && error.code === 'STAGELINK_ERR_STALLED_ANSWER');
  if (stalled !== undefined) return { status: InstanceStatus.UnknownWarning, message: `${MTU_MESSAGE}: ${reasonOf(stalled)}` };
  const refused = failures[0];
  if (refused !== undefined) return { status: InstanceStatus.UnknownWarning, message: reasonOf(refused) };
  if (reads.some((read) => read.kind === 'waiting')) return { status: InstanceStatus.Connecting, message: 'Asking the server' };
  if (live === 'online') return { status: InstanceStatus.Ok, message: null };
  if (live === 'offline' && liveWasUp) return { status: InstanceStatus.Disconnected, message: 'The server answers, but live updates are down: values are not live.' };
  return { status: InstanceStatus.Connecting, message: 'Connecting live updates' };
}
