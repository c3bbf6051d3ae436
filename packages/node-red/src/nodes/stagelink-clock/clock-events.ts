import type { ClockCue, ClockStatus, ShowClockSnapshot } from '@stagelink/core';

/**
 * The show events of one transport's clock, pure: successive snapshots in, the section changes, cues passed and
 * warning thresholds reached between them out. Only live (`online`) snapshots count: a stale or offline clock
 * holds where it was last seen, and what it shows then has not happened. After such a gap the first live snapshot
 * is only noted, as at the start: what happened meanwhile is never told late, when a flow could still act on it.
 */

export type ClockEventKind = 'section' | 'cue' | 'remaining' | 'status';

export interface ClockEvent {
  event: ClockEventKind;
  payload: { value: unknown; transport: string; [detail: string]: unknown };
}

/**
 * How far the playhead may run ahead of real time between two readings and still be playing past what lies
 * between: further is a jump (a goto, an operator moving the playhead), and a cue jumped over was not passed.
 */
const JUMP_SLACK_S = 1;

interface Reading {
  snapshot: ShowClockSnapshot;
  /** When it was read, in ms on a monotonic clock. */
  at: number;
}

export class ClockEvents {
  #last: Reading | undefined;
  /** The lowest threshold the section's remaining time is at or below, as last read (Infinity: above them all). */
  #level = Infinity;

  /** @param thresholds section remaining times that raise a `remaining` event, lowest first */
  constructor(private readonly thresholds: readonly number[]) {}

  /**
   * The events since the last live snapshot. The first one, and the first after a gap, is only noted: a node
   * that has just started, or has just seen the clock again, has seen nothing happen.
   */
  see(snapshot: ShowClockSnapshot, at: number): ClockEvent[] {
    if (snapshot.status !== 'online') {
      this.#last = undefined;
      return [];
    }
    // Until the track's length and annotations are read (core shows length 0), its sections and cues are not
    // known: such a snapshot is passed over, and the next known one compared with the last known one.
    if (snapshot.track.length <= 0) return [];
    const last = this.#last;
    this.#last = { snapshot, at };
    const level = this.#levelOf(snapshot);
    const previousLevel = this.#level;
    this.#level = level;
    if (!last) return [];

    const events: ClockEvent[] = [];
    const transport = snapshot.transport.name;
    const track = snapshot.track.name;
    const sameTrack = last.snapshot.track.uid === snapshot.track.uid;
    const sectionChanged = !sameTrack || last.snapshot.section?.index !== snapshot.section?.index;
    if (sectionChanged && snapshot.section) {
      const previous = sameTrack ? (last.snapshot.section?.index ?? null) : null;
      events.push({
        event: 'section',
        payload: { value: snapshot.section.index, previous, transport, track, ...(sameTrack ? {} : { previousTrack: last.snapshot.track.name }), section: snapshot.section, ...(snapshot.nextSection && { nextSection: snapshot.nextSection }) },
      });
    }
    if (sameTrack && playedOn(last, { snapshot, at })) {
      for (const cue of cuesPassed(last.snapshot, snapshot)) {
        events.push({ event: 'cue', payload: { value: cue, transport, track, time: snapshot.time, ...(snapshot.cue?.next && { next: snapshot.cue.next }) } });
      }
    }
    // Entering a section starts from above every threshold: a short section, or a jump near a section's end,
    // warns at once with the lowest threshold reached.
    if (snapshot.section && level < (sectionChanged ? Infinity : previousLevel)) {
      events.push({ event: 'remaining', payload: { value: level, remaining: snapshot.section.remaining, section: snapshot.section.index, transport, track } });
    }
    return events;
  }

  #levelOf(snapshot: ShowClockSnapshot): number {
    const remaining = snapshot.section?.remaining;
    if (remaining === undefined) return Infinity;
    return this.thresholds.find((threshold) => remaining <= threshold) ?? Infinity;
  }
}

/** The playhead moved forward, no faster than real time (give or take the slack): played, not jumped. */
function playedOn(last: Reading, now: Reading): boolean {
  const moved = now.snapshot.time - last.snapshot.time;
  return moved > 0 && moved <= (now.at - last.at) / 1000 + JUMP_SLACK_S;
}

/**
 * The cues whose time lies after the last reading and at or before this one: the one that was next, and the one
 * now current when that is another (two cues passed in one reading). The snapshot names no others.
 */
function cuesPassed(last: ShowClockSnapshot, now: ShowClockSnapshot): ClockCue[] {
  const passed: ClockCue[] = [];
  const wasNext = last.cue?.next;
  if (wasNext && wasNext.time > last.time && wasNext.time <= now.time) passed.push(wasNext);
  const current = now.cue?.current;
  if (current && current.time > last.time && current.time <= now.time && !passed.some((cue) => sameCue(cue, current))) passed.push(current);
  return passed;
}

function sameCue(a: ClockCue, b: ClockCue): boolean {
  return a.kind === b.kind && a.value === b.value && a.time === b.time;
}

/** What the node shows and tells: the clock's status, or `connecting` until the first snapshot while the link comes up. */
export type ShownStatus = ClockStatus | 'connecting';

/**
 * Core calls a clock without a playhead `offline`: before the first one arrives that is only true once the live
 * link has been seen down, not while it has not been opened yet, is coming up, or the transport's values are on
 * their way.
 */
export function shownStatus(clock: ClockStatus, linkSeenDown: boolean, hasSnapshot: boolean): ShownStatus {
  if (clock === 'offline' && !hasSnapshot && !linkSeenDown) return 'connecting';
  return clock;
}
