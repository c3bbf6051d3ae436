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

/** The transport's play state and how fresh it is; the state is there only when it is live. */
export function playStateOf(show: Show, name: string): { freshness: Freshness; state?: PlayState } {
  const clock = show.watchOf(name)?.clock;
  if (clock?.status === 'online' && clock.playmode !== 'Unknown') {
    return { freshness: 'live', state: { playmode: clock.playmode, playing: clock.playing, track: clock.track.name } };
  }
  const list = freshnessOfPoll(show.transportList.state);
  const entry = show.transportNamed(show.transports.has(name) ? name : (show.multitransports.find((multi) => multi.name === name)?.members[0] ?? name));
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
