import type { Ref } from '@stagelink/core';
import type { Playhead } from './playhead.js';
import { sectionIndexAt } from './playhead.js';
import { invalidArgument, notFound, outOfRange } from './refusal.js';
import { requireByRef } from './refs.js';
import type { ShowSetList, ShowTrack } from './show.js';

/** The simulated project runs at 30 frames per second: frames and timecode frames count at that rate. */
export const FRAME_RATE = 30;

/** Tags of this type anchor timecode to a place in a track: the tag's value is the timecode at its time. */
export const TIMECODE_TAG = 'TC';

export interface CueContext {
  readonly setList: ShowSetList;
  readonly at: Playhead;
  /** For messages: `transport "main"`. */
  readonly transport: string;
}

/** Where a goto command sends a transport; refuses when the place does not exist. */
export type CueTarget = (cue: CueContext) => Playhead;

export const toTime =
  (time: number): CueTarget =>
  (cue) =>
    inCurrentTrack(cue, time, `time ${time} s`);

export const toFrame =
  (frame: number): CueTarget =>
  (cue) =>
    inCurrentTrack(cue, frame / FRAME_RATE, `frame ${frame}`);

export const toTrack =
  (track: Ref): CueTarget =>
  ({ setList, transport }) => {
    const found = requireByRef(setList.tracks, track, 'track', `set list "${setList.name}" of ${transport}`);
    return { trackIndex: setList.tracks.indexOf(found), time: 0 };
  };

/** A time in a track of the set list: where an operator clicks on the timeline. */
export const toTrackTime =
  (track: Ref, time: number): CueTarget =>
  (cue) =>
    inCurrentTrack({ ...cue, at: toTrack(track)(cue) }, time, `time ${time} s`);

export const toNextTrack: CueTarget = (cue) => trackStep(cue, +1);
export const toPrevTrack: CueTarget = (cue) => trackStep(cue, -1);
export const toNextSection: CueTarget = (cue) => sectionStep(cue, +1);
export const toPrevSection: CueTarget = (cue) => sectionStep(cue, -1);

/** A section of the current track, by its 0-based index. */
export const toSection =
  (index: number): CueTarget =>
  (cue) => {
    const track = currentTrack(cue);
    const section = track.annotations.sections.find((candidate) => candidate.index === index);
    if (!section) {
      const known = track.annotations.sections.map((candidate) => candidate.index).join(', ') || 'none';
      throw notFound(`Section "${index}" not found in track "${track.name}" of ${cue.transport} (sections: ${known}).`);
    }
    return { trackIndex: cue.at.trackIndex, time: section.time };
  };

/** The first note with this text: in the current track first, then in the set list's order. */
export const toNote =
  (text: string): CueTarget =>
  (cue) => {
    for (const index of currentFirst(cue)) {
      const note = cue.setList.tracks[index]?.annotations.notes.find((candidate) => candidate.text === text);
      if (note) return { trackIndex: index, time: note.time };
    }
    throw notFound(`Note "${text}" not found in set list "${cue.setList.name}" of ${cue.transport}.`);
  };

/**
 * A tag of the current track; with `allowGlobalJump` also of the other tracks, in the set list's order.
 * `typeMatches` is the dialect's rule for tag type words.
 */
export const toTag =
  (type: string, value: string, allowGlobalJump: boolean, typeMatches: (asked: string, tagType: string) => boolean): CueTarget =>
  (cue) => {
    const searched = allowGlobalJump ? currentFirst(cue) : [cue.at.trackIndex];
    for (const index of searched) {
      const tag = cue.setList.tracks[index]?.annotations.tags.find((candidate) => typeMatches(type, candidate.type) && candidate.value === value);
      if (tag) return { trackIndex: index, time: tag.time };
    }
    const where = allowGlobalJump ? `set list "${cue.setList.name}"` : `track "${currentTrack(cue).name}" (allowGlobalJump is false)`;
    throw notFound(`Tag ${type} "${value}" not found in ${where} of ${cue.transport}.`);
  };

/**
 * A timecode. By default it is placed through the TC tags of the set list: a tag says which timecode its place
 * shows, and time runs on from there to the end of its track. With `ignoreTags` the timecode is read as a
 * position from the start of the set list.
 */
export const toTimecode =
  (timecode: string, ignoreTags: boolean): CueTarget =>
  (cue) => {
    const seconds = parseTimecode(timecode);
    return ignoreTags ? atSetListTime(cue, seconds, timecode) : throughTimecodeTags(cue, seconds, timecode);
  };

/** `HH:MM:SS:FF` (`;` or `.` before the frames also accepted) to seconds. */
export function parseTimecode(timecode: string): number {
  const match = /^(\d{1,2}):(\d{2}):(\d{2})[:;.](\d{2})$/.exec(timecode.trim());
  const [hours, minutes, seconds, frames] = (match?.slice(1) ?? []).map(Number);
  if (hours === undefined || minutes === undefined || seconds === undefined || frames === undefined || minutes > 59 || seconds > 59 || frames >= FRAME_RATE) {
    throw invalidArgument(`Timecode "${timecode}" is not HH:MM:SS:FF at ${FRAME_RATE} frames per second.`);
  }
  return hours * 3600 + minutes * 60 + seconds + frames / FRAME_RATE;
}

function throughTimecodeTags(cue: CueContext, seconds: number, timecode: string): Playhead {
  let best: { playhead: Playhead; anchor: number } | undefined;
  cue.setList.tracks.forEach((track, trackIndex) => {
    for (const tag of track.annotations.tags) {
      if (tag.type !== TIMECODE_TAG) continue;
      const anchor = parseTimecode(tag.value);
      const time = tag.time + (seconds - anchor);
      if (anchor <= seconds && time <= track.length && (!best || anchor > best.anchor)) best = { playhead: { trackIndex, time }, anchor };
    }
  });
  if (best) return best.playhead;
  throw outOfRange(
    `Timecode ${timecode} is not covered by any ${TIMECODE_TAG} tag of set list "${cue.setList.name}" of ${cue.transport}; ` +
      'send ignoreTags: true to read it as a position from the start of the set list.',
  );
}

function atSetListTime(cue: CueContext, seconds: number, timecode: string): Playhead {
  let start = 0;
  for (const [trackIndex, track] of cue.setList.tracks.entries()) {
    if (seconds <= start + track.length) return { trackIndex, time: seconds - start };
    start += track.length;
  }
  throw outOfRange(`Timecode ${timecode} is past the end of set list "${cue.setList.name}" of ${cue.transport} (${start} s long).`);
}

function inCurrentTrack(cue: CueContext, time: number, what: string): Playhead {
  const track = currentTrack(cue);
  if (time < 0 || time > track.length) {
    throw outOfRange(`${capitalise(what)} is outside track "${track.name}" of ${cue.transport} (0 to ${track.length} s).`);
  }
  return { trackIndex: cue.at.trackIndex, time };
}

function trackStep(cue: CueContext, step: 1 | -1): Playhead {
  const trackIndex = cue.at.trackIndex + step;
  if (!cue.setList.tracks[trackIndex]) {
    const edge = step > 0 ? 'last' : 'first';
    throw outOfRange(`Track "${currentTrack(cue).name}" is the ${edge} track of set list "${cue.setList.name}" of ${cue.transport}.`);
  }
  return { trackIndex, time: 0 };
}

function sectionStep(cue: CueContext, step: 1 | -1): Playhead {
  const track = currentTrack(cue);
  if (track.annotations.sections.length === 0) throw outOfRange(`Track "${track.name}" of ${cue.transport} has no sections.`);
  const section = track.annotations.sections[sectionIndexAt(track, cue.at.time) + step];
  if (!section) {
    const edge = step > 0 ? 'last' : 'first';
    throw outOfRange(`${cue.transport} is in the ${edge} section of track "${track.name}".`);
  }
  return { trackIndex: cue.at.trackIndex, time: section.time };
}

function currentTrack(cue: CueContext): ShowTrack {
  const track = cue.setList.tracks[cue.at.trackIndex];
  if (!track) throw notFound(`Set list "${cue.setList.name}" of ${cue.transport} has no tracks.`);
  return track;
}

/** Track indices, the current one first and then the set list in order. */
function currentFirst(cue: CueContext): number[] {
  const others = cue.setList.tracks.map((_, index) => index).filter((index) => index !== cue.at.trackIndex);
  return [cue.at.trackIndex, ...others];
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
