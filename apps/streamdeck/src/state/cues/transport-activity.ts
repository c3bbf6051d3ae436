/**
 * Whether a key's transport is playing, read from the transport list. Which playmodes play is core's rule
 * (`isPlaying`: `Play`, `PlaySection` and `Loop`, in either vocabulary); anything else is not shown as playing:
 * a key must never claim a cue is running when it may not be.
 */
import { isPlaying, multitransportMembers, type Transport } from '@stagelink/core';
import type { TransportList } from '../connection/server-pool.js';

/** The poll's answer if it has the shape of a transport list; a server that sent something else gets no guess. */
export function asTransportList(value: unknown): TransportList | undefined {
  const list = value as Partial<TransportList> | null | undefined;
  return Array.isArray(list?.transports) && Array.isArray(list.multitransports) ? (list as TransportList) : undefined;
}

export type Activity = 'playing' | 'stopped' | 'missing';

/**
 * The activity of the transport (or multitransport) named `name`: a multitransport plays when any of its
 * transports does.
 */
export function activityOf(list: TransportList, name: string): Activity {
  const transport = list.transports.find((candidate) => candidate.name === name);
  if (transport) return isPlaying(transport) ? 'playing' : 'stopped';
  const multi = list.multitransports.find((candidate) => candidate.name === name);
  if (!multi) return 'missing';
  return multitransportMembers(list.transports, multi).some((member) => isPlaying(member)) ? 'playing' : 'stopped';
}

/** Whether the transport (or multitransport) named `name` is engaged; undefined when there is none. */
export function engagedOf(list: TransportList, name: string): boolean | undefined {
  return [...list.transports, ...list.multitransports].find((candidate) => candidate.name === name)?.engaged;
}

/**
 * The transport whose volume and brightness a dial shows: the one named `name`, or for a multitransport its
 * first member (a level sent to a multitransport sets all of its members).
 */
export function levelSource(list: TransportList, name: string): Transport | undefined {
  const transport = list.transports.find((candidate) => candidate.name === name);
  if (transport) return transport;
  const multi = list.multitransports.find((candidate) => candidate.name === name);
  return multi ? multitransportMembers(list.transports, multi)[0] : undefined;
}
