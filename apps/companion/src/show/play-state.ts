/**
 * What a transport is playing, from the freshest source: the live stream (core's show clock follows the playmode
 * and track as the director sends them) while it is live, and the transports list, read every second, when it is
 * not. A cue's effect then shows as soon as the director reports it, not at the next read of the list.
 */
import { isPlaying, type Playmode, toPlaymode } from '@stagelink/core';
import { freshnessOfPoll, type Freshness } from './freshness.js';
import type { Show } from './show.js';

export interface PlayState {
  playmode: Playmode;
  playing: boolean;
  track: string;
}

/**
 * The transport's play state and how fresh it is; the state is there only when it is live. A multitransport shows
 * its first member's playmode and track (core's clock of a multitransport is its first member's too), and plays
 * while any member plays.
 */
export function playStateOf(show: Show, name: string): { freshness: Freshness; state?: PlayState } {
  const members = show.transports.has(name) ? undefined : show.multitransports.find((multi) => multi.name === name)?.members;
  const [first, ...others] = (members ?? [name]).map((each) => transportPlayState(show, each));
  if (!first?.state || others.length === 0) return first ?? { freshness: 'stale' };
  return { freshness: first.freshness, state: { ...first.state, playing: first.state.playing || others.some(({ state }) => state?.playing === true) } };
}

function transportPlayState(show: Show, name: string): { freshness: Freshness; state?: PlayState } {
  const clock = show.transports.get(name)?.clock;
  if (clock?.status === 'online' && clock.playmode !== 'Unknown') {
    return { freshness: 'live', state: { playmode: clock.playmode, playing: clock.playing, track: clock.track.name } };
  }
  const list = freshnessOfPoll(show.transportList.state);
  const entry = show.transportNamed(name);
  if (list !== 'live') return { freshness: list };
  if (!entry) return { freshness: 'stale' };
  return { freshness: 'live', state: { playmode: toPlaymode(entry.playmode), playing: isPlaying(entry), track: entry.currentTrack.name } };
}

/** One comparable key of every transport's play state: what the play-state feedbacks and variables read. */
export function playStateKey(show: Show): string {
  return [...show.transports.keys()]
    .map((name) => {
      const { freshness, state } = playStateOf(show, name);
      return `${name}=${freshness}:${state ? `${state.playmode}:${state.playing}:${state.track}` : ''}`;
    })
    .join('\u0000');
}
