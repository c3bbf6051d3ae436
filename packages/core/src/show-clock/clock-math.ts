import type { Playmode } from '../media-server/playmode.js';
import type { TrackAnnotations } from '../media-server/types.js';

/**
 * The show clock's arithmetic, pure: where the playhead is now from where the director last said it was, and
 * what that means in the track's sections and cues. Times in seconds; `nowMs` and `at` on one monotonic clock.
 */

/** A tag (its type: `TC`, `MIDI`, `CUE`, ...) or a note (`note`), at its time in the track. */
export interface ClockCue {
  kind: string;
  value: string;
  time: number;
}

/** One track as the clock needs it: its length, its sections by start time, its cues by time. */
export interface TrackTimeline {
  uid: string;
  name: string;
  length: number;
  sections: readonly { index: number; time: number }[];
  cues: readonly ClockCue[];
}

/** What the director last said of the player, and when it was heard. */
export interface PlayerReading {
  /** The playhead (seconds into the track) as sent. */
  time: number;
  /** When it was heard, in ms on the caller's monotonic clock. */
  at: number;
  playing: boolean;
  playmode: Playmode;
}

export interface SectionNow {
  index: number;
  /** Where the section starts in the track. */
  time: number;
  elapsed: number;
  remaining: number;
}

/** The clock's fields that depend on where the playhead is. */
export interface ClockPosition {
  time: number;
  trackRemaining: number;
  section?: SectionNow;
  nextSection?: { index: number; time: number };
  cue?: { current?: ClockCue; next?: ClockCue; nextIn?: number };
}

/** A timeline from the track's length and its annotations (sections and cues sorted by time). */
export function timelineOf(track: { uid: string; name: string; length: number }, annotations: TrackAnnotations['annotations'] | undefined): TrackTimeline {
  const sections = [...(annotations?.sections ?? [])].sort((a, b) => a.time - b.time);
  const cues: ClockCue[] = [
    ...(annotations?.tags ?? []).map((tag) => ({ kind: tag.type, value: tag.value, time: tag.time })),
    ...(annotations?.notes ?? []).map((note) => ({ kind: 'note', value: note.text, time: note.time })),
  ].sort((a, b) => a.time - b.time);
  return { uid: track.uid, name: track.name, length: track.length, sections, cues };
}

/**
 * The section the time falls in, as the director plays it: the last that starts at or before it (the first one
 * before any starts), ending where the next starts or the track ends. Undefined for a track without sections.
 */
export function sectionAt(timeline: TrackTimeline, time: number): { index: number; start: number; end: number; position: number } | undefined {
  const { sections } = timeline;
  if (sections.length === 0) return undefined;
  let position = 0;
  for (let i = 1; i < sections.length; i++) if ((sections[i] as { time: number }).time <= time) position = i;
  const section = sections[position] as { index: number; time: number };
  return { index: section.index, start: section.time, end: sections[position + 1]?.time ?? timeline.length, position };
}

/**
 * Where the playhead is at `nowMs`, from the last reading: still where it was unless playing; while playing, on
 * by the time since, but a PlaySection stops at its section's end, a Loop wraps inside its section, and Play
 * stops at the track's end (the next track comes as a new reading).
 */
export function playheadAt(reading: PlayerReading, timeline: TrackTimeline | undefined, nowMs: number): number {
  if (!reading.playing || reading.playmode === 'Stop') return reading.time;
  const time = reading.time + Math.max(0, nowMs - reading.at) / 1000;
  if (!timeline) return time;
  const section = sectionAt(timeline, reading.time);
  const start = section?.start ?? 0;
  const end = section?.end ?? timeline.length;
  switch (reading.playmode) {
    case 'PlaySection':
      return Math.min(time, end);
    case 'Loop':
      if (end <= start) return start;
      return time < end ? time : start + ((time - start) % (end - start));
    default:
      return Math.min(time, timeline.length);
  }
}

/**
 * The playhead's place in the track: section, next section, the cue passed last and the next one. What comes next
 * is what will play: a Loop goes back to the start of its section (the whole track without sections), so its next
 * section is that one again, and its next cue the first one after the wrap once none is left before it. A
 * PlaySection stops at its section's end: a next cue beyond it is named, without a time to it.
 */
export function positionIn(timeline: TrackTimeline | undefined, time: number, playmode?: Playmode): ClockPosition {
  if (!timeline) return { time, trackRemaining: 0 };
  const position: ClockPosition = { time, trackRemaining: Math.max(0, timeline.length - time) };
  const section = sectionAt(timeline, time);
  if (section) {
    position.section = { index: section.index, time: section.start, elapsed: Math.max(0, time - section.start), remaining: Math.max(0, section.end - time) };
    const next = playmode === 'Loop' ? { index: section.index, time: section.start } : timeline.sections[section.position + 1];
    if (next) position.nextSection = { index: next.index, time: next.time };
  }
  const nextAt = timeline.cues.findIndex((cue) => cue.time > time);
  const current = timeline.cues[(nextAt === -1 ? timeline.cues.length : nextAt) - 1];
  const ahead = nextAt === -1 ? undefined : timeline.cues[nextAt];
  const next = playmode === 'Loop' ? nextInLoop(timeline, time, section) : ahead && nextAhead(ahead, time, playmode === 'PlaySection' ? section?.end : undefined);
  if (current || next) position.cue = { ...(current && { current }), ...next };
  return position;
}

/** The next cue ahead, counted down only if the playhead gets there: a PlaySection stops at `stopsAt`. */
function nextAhead(ahead: ClockCue, time: number, stopsAt: number | undefined): { next: ClockCue; nextIn?: number } {
  return stopsAt !== undefined && ahead.time > stopsAt ? { next: ahead } : { next: ahead, nextIn: ahead.time - time };
}

/** The next cue a Loop plays: ahead of the playhead before the loop's end, else the first after it wraps. */
function nextInLoop(timeline: TrackTimeline, time: number, section: { start: number; end: number } | undefined): { next: ClockCue; nextIn: number } | undefined {
  const { start, end } = section ?? { start: 0, end: timeline.length };
  const inLoop = timeline.cues.filter((cue) => cue.time >= start && cue.time < end);
  const ahead = inLoop.find((cue) => cue.time > time);
  if (ahead) return { next: ahead, nextIn: ahead.time - time };
  const wrapped = inLoop[0];
  return wrapped && { next: wrapped, nextIn: end - time + (wrapped.time - start) };
}
