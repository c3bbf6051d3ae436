import { PLAYMODES, type Playmode } from './playmodes.js';
import type { ShowSetList, ShowTrack } from './show.js';

/** Where a transport is: a track of its set list and seconds into that track. */
export interface Playhead {
  readonly trackIndex: number;
  readonly time: number;
}

export interface Motion {
  playhead: Playhead;
  playmode: Playmode;
}

/** Index of the section the time falls in, or -1 when the track has no sections. */
export function sectionIndexAt(track: ShowTrack, time: number): number {
  const { sections } = track.annotations;
  let index = sections.length > 0 ? 0 : -1;
  sections.forEach((section, i) => {
    if (section.time <= time) index = i;
  });
  return index;
}

/** Start and end of the section the time falls in; a track without sections is one section. */
export function sectionBounds(track: ShowTrack, time: number): { start: number; end: number } {
  const { sections } = track.annotations;
  const index = sectionIndexAt(track, time);
  return {
    start: sections[index]?.time ?? 0,
    end: sections[index + 1]?.time ?? track.length,
  };
}

/**
 * Moves a playhead on by `seconds` of wall time in a playmode:
 * - `play` runs through the set list and stops at the end of its last track;
 * - `play to end of section` stops at the end of the section (the start of the next);
 * - `loop section` wraps inside the section;
 * - `stop` stays.
 */
export function advance(setList: ShowSetList, from: Motion, seconds: number): Motion {
  const track = setList.tracks[from.playhead.trackIndex];
  if (!track || seconds <= 0 || from.playmode === PLAYMODES.stop) return from;
  const time = from.playhead.time + seconds;
  switch (from.playmode) {
    case PLAYMODES.play:
      return playOn(setList, from.playhead.trackIndex, time);
    case PLAYMODES.playSection: {
      const { end } = sectionBounds(track, from.playhead.time);
      if (time < end) return { playhead: { ...from.playhead, time }, playmode: from.playmode };
      return { playhead: { ...from.playhead, time: end }, playmode: PLAYMODES.stop };
    }
    case PLAYMODES.loopSection: {
      const { start, end } = sectionBounds(track, from.playhead.time);
      const length = end - start;
      const looped = length > 0 ? start + ((time - start) % length) : start;
      return { playhead: { ...from.playhead, time: looped }, playmode: from.playmode };
    }
  }
}

function playOn(setList: ShowSetList, trackIndex: number, time: number): Motion {
  let index = trackIndex;
  let remaining = time;
  for (let track = setList.tracks[index]; track; track = setList.tracks[index]) {
    if (remaining < track.length) return { playhead: { trackIndex: index, time: remaining }, playmode: PLAYMODES.play };
    const next = setList.tracks[index + 1];
    if (!next) return { playhead: { trackIndex: index, time: track.length }, playmode: PLAYMODES.stop };
    remaining -= track.length;
    index += 1;
  }
  return { playhead: { trackIndex, time }, playmode: PLAYMODES.stop };
}
