/**
 * How much a shown value can be trusted: `live` as the server sends it, `stale` when the link is up but the value
 * stopped (or the answer carrying it failed), `no link` when the server cannot be reached, `waiting` before the
 * first value. Nothing but `live` is shown as a value.
 */
import { isUnreachable, type LiveStatus } from '@stagelink/core';
import type { PollState } from './poll.js';

export type Freshness = 'live' | 'stale' | 'no link' | 'waiting';

/** What a variable shows for a value that is not live. */
export function shownWhenNotLive(freshness: Exclude<Freshness, 'live'>): string {
  return freshness === 'waiting' ? '' : freshness;
}

export function freshnessOfPoll(state: PollState<unknown>): Freshness {
  if (state.kind === 'answered') return 'live';
  if (state.kind === 'waiting') return 'waiting';
  return isUnreachable(state.error) ? 'no link' : 'stale';
}

/** A live subscription's value: live once it has one and the stream carries it. */
export function freshnessOfLive(status: LiveStatus, hasValue: boolean, linkWasUp: boolean): Freshness {
  if (status === 'stale') return 'stale';
  if (status === 'online') return hasValue ? 'live' : 'waiting';
  return linkWasUp ? 'no link' : 'waiting';
}
