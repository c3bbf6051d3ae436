/**
 * Companion's connection status, honestly: `ok` only while the server answers every read and the live stream is
 * up. `connection_failure` only when the server cannot be reached at all. A partial link is a warning that says
 * what still works: a machine that answers small requests while large answers stall (MTU, jumbo frames), or one
 * that answers requests (cues work) while its live stream is down. A management controller that refused the
 * account is `authentication_failure`, naming the machine.
 */
import { InstanceStatus } from '@companion-module/base';
import { isUnreachable, type LinkDown, type LinkStatus, reasonOf, StagelinkError } from '@stagelink/core';
import type { PollState } from './poll.js';

export interface ConnectionStatus {
  status: InstanceStatus;
  message: string | null;
}

export interface LinkInputs {
  reads: readonly PollState<unknown>[];
  linkDown: LinkDown | undefined;
  live: LinkStatus;
  liveWasUp: boolean;
}

/** The words for a machine that answers, but whose large answers never arrive. */
export const MTU_MESSAGE = 'Reachable, but large answers do not arrive (MTU or jumbo frames?)';

/** The words for a server that answers requests while its live stream is down. */
export const LIVE_DOWN_MESSAGE = 'The server answers and cues work, but live updates are down: values are not live';

/** The link to the server alone: what the `link` variable and feedback say. */
export function linkStatus({ reads, linkDown, live, liveWasUp }: LinkInputs): ConnectionStatus {
  const failures = reads.flatMap((read) => (read.kind === 'failed' ? [read.error] : []));
  const unreachable = failures.find((error) => isUnreachable(error));
  if (unreachable !== undefined) return { status: InstanceStatus.ConnectionFailure, message: reasonOf(unreachable) };
  if (linkDown) return { status: InstanceStatus.ConnectionFailure, message: linkDown.reason };
  const stalled = failures.find((error) => error instanceof StagelinkError && error.code === 'STAGELINK_ERR_STALLED_ANSWER');
  if (stalled !== undefined) return { status: InstanceStatus.UnknownWarning, message: `${MTU_MESSAGE}: ${reasonOf(stalled)}` };
  const refused = failures[0];
  if (refused !== undefined) return { status: InstanceStatus.UnknownWarning, message: reasonOf(refused) };
  if (reads.some((read) => read.kind === 'waiting')) return { status: InstanceStatus.Connecting, message: 'Asking the server' };
  if (live === 'online') return { status: InstanceStatus.Ok, message: null };
  if (live === 'offline' && liveWasUp) return { status: InstanceStatus.UnknownWarning, message: `${LIVE_DOWN_MESSAGE}.` };
  return { status: InstanceStatus.Connecting, message: 'Connecting live updates' };
}

/**
 * The connection's status: a management controller's refusal (`refusedLogin`, naming the machine) outranks all but
 * an unreachable server, and a warning about the link is still said after it: the refusal stops one machine's
 * hardware actions, the link's problem makes every value not live.
 */
export function connectionStatus(link: ConnectionStatus, refusedLogin: string | undefined): ConnectionStatus {
  if (refusedLogin === undefined || link.status === InstanceStatus.ConnectionFailure) return link;
  const linkProblem = link.status === InstanceStatus.UnknownWarning ? ` ${link.message ?? ''}` : '';
  return { status: InstanceStatus.AuthenticationFailure, message: `${refusedLogin}${linkProblem}` };
}
