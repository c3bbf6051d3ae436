/**
 * A show clock key's settings, and what the key shows from core's clock of its transport: pure, so every state
 * is unit-tested without a server or a timer. Core works the clock out (where the playhead is between the
 * director's updates, the section, the next cue, whether the clock is stale); the key picks what to count, how
 * to write it, and when to warn.
 */
import { formatClock, type ShowClockSnapshot } from '@stagelink/core';
import type { ClockAlert, ClockView } from '../../render/clock-view.js';
import { CLOCK_SHOWS, numberSetting, textSetting, type ClockSettings, type ClockShow, type JsonValue } from '../../settings.js';
import { isLinkDown, largeAnswersFail } from '../connection/link.js';

export const DEFAULT_WARN_AT_S = 10;
export const DEFAULT_FLASH_AT_S = 5;

export interface ClockTarget {
  transport: string;
  show: ClockShow;
  /** Seconds: orange under this. */
  warnAt: number;
  /** Seconds: flashing under this while the transport plays. */
  flashAt: number;
}

/** The key's target, or the sentence saying what to set. */
export function readClockTarget(settings: ClockSettings): ClockTarget | string {
  const transport = textSetting(settings.transport);
  if (!transport) return 'Choose a transport.';
  const show = isBlank(settings.show) ? 'sectionRemaining' : settings.show;
  if (typeof show !== 'string' || !(CLOCK_SHOWS as readonly string[]).includes(show.trim())) {
    return `Show must be one of ${CLOCK_SHOWS.join(', ')}, not ${JSON.stringify(show)}.`;
  }
  const warnAt = secondsSetting(settings.warnAt, DEFAULT_WARN_AT_S);
  if (warnAt === undefined) return `"Orange under" must be a number of seconds, 0 or more, not ${JSON.stringify(settings.warnAt)}.`;
  const flashAt = secondsSetting(settings.flashAt, DEFAULT_FLASH_AT_S);
  if (flashAt === undefined) return `"Flash under" must be a number of seconds, 0 or more, not ${JSON.stringify(settings.flashAt)}.`;
  return { transport, show: show.trim() as ClockShow, warnAt, flashAt };
}

/** A threshold in seconds: absent or blank is the default; anything else must be a number, 0 or more. */
function secondsSetting(value: JsonValue | undefined, fallback: number): number | undefined {
  if (isBlank(value)) return fallback;
  const seconds = numberSetting(value);
  return seconds !== undefined && seconds >= 0 ? seconds : undefined;
}

/** Not set: absent, null, or a field left empty. */
function isBlank(value: JsonValue | undefined): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** What the tile knows besides its settings. */
export interface ClockState {
  /** Core's clock as read now; undefined until the director has sent the playhead. */
  snapshot: ShowClockSnapshot | undefined;
  /** The last problem core told while there was no snapshot (the server down, no such transport). */
  error?: unknown;
  /** Whether the live stream is up, for the face before the first playhead. */
  linkOnline: boolean;
}

/** The view of the key or strip: never a moving clock while the clock is stale or offline. */
export function clockView(target: ClockTarget, state: ClockState): ClockView {
  const { transport } = target;
  const { snapshot, error } = state;
  if (!snapshot) {
    if (error !== undefined && isLinkDown(error)) return { kind: 'noLink', transport };
    if (error !== undefined && largeAnswersFail(error)) return { kind: 'largeAnswersFail', transport };
    if (error !== undefined) return { kind: 'problem', transport };
    return { kind: 'waiting', transport, reason: state.linkOnline ? 'no data' : 'connecting' };
  }
  if (snapshot.status === 'offline') return { kind: 'noLink', transport };
  if (snapshot.status === 'stale') return { kind: 'stale', transport };
  const count = counted(target.show, snapshot);
  if (!count) return { kind: 'clock', transport, digits: '--', label: uncountedLabel(target.show, snapshot), alert: 'none', lit: false, progress: 0 };
  const alert = count.countsDown ? alertOf(count.seconds, target, snapshot.playing) : 'none';
  return {
    kind: 'clock',
    transport,
    digits: count.countsDown ? formatClock(count.seconds, { mode: 'countdown' }) : elapsedClock(count.seconds),
    label: count.label,
    alert,
    lit: alert === 'warn' || (alert === 'flash' && flashLit(count.seconds)),
    progress: Math.min(1, Math.max(0, count.progress)),
  };
}

interface Count {
  seconds: number;
  label: string;
  countsDown: boolean;
  progress: number;
}

/** The seconds the key counts, what they are, and how far the playhead is through them. */
function counted(show: ClockShow, clock: ShowClockSnapshot): Count | undefined {
  const trackProgress = clock.track.length > 0 ? clock.time / clock.track.length : 0;
  switch (show) {
    case 'sectionRemaining': {
      const section = clock.section;
      // A track without sections is one section: its end is the track's.
      if (!section) return { seconds: clock.trackRemaining, label: 'TRACK END', countsDown: true, progress: trackProgress };
      const length = section.elapsed + section.remaining;
      return { seconds: section.remaining, label: `SECTION ${section.index}`, countsDown: true, progress: length > 0 ? section.elapsed / length : 1 };
    }
    case 'trackRemaining':
      return { seconds: clock.trackRemaining, label: 'TRACK END', countsDown: true, progress: trackProgress };
    case 'playhead':
      return { seconds: clock.time, label: clock.track.name, countsDown: false, progress: trackProgress };
    case 'nextCueIn': {
      const next = clock.cue?.next;
      const nextIn = clock.cue?.nextIn;
      if (!next || nextIn === undefined) return undefined;
      const from = clock.cue?.current?.time ?? 0;
      const span = next.time - from;
      return { seconds: nextIn, label: cueLabel(next), countsDown: true, progress: span > 0 ? (clock.time - from) / span : 1 };
    }
  }
}

/**
 * The label over `--`: the next cue where it is known but the playhead will not get there by itself (a section
 * played to its end stops before it), else `NO CUE`.
 */
function uncountedLabel(show: ClockShow, clock: ShowClockSnapshot): string {
  const next = show === 'nextCueIn' ? clock.cue?.next : undefined;
  return next ? cueLabel(next) : 'NO CUE';
}

/** A cue by its text, or by its kind (`CUE`, `note`) where it has none. */
function cueLabel(cue: { kind: string; value: string }): string {
  return cue.value.trim() === '' ? cue.kind : cue.value;
}

/** Flashing needs the transport to play: a stopped countdown does not run out, so it stays orange and still. */
function alertOf(seconds: number, target: ClockTarget, playing: boolean): ClockAlert {
  if (seconds < target.flashAt && playing) return 'flash';
  if (seconds < target.warnAt || seconds < target.flashAt) return 'warn';
  return 'none';
}

/**
 * Lit for the first half of every second shown, dark for the second: the flash follows the countdown itself,
 * so two keys counting to the same moment flash together, and it changes twice a second, well within a key's
 * four frames a second.
 */
function flashLit(seconds: number): boolean {
  return seconds % 1 >= 0.5 || seconds % 1 === 0;
}

/**
 * The playhead in whole seconds (`1:23`, `1:02:03`), counted up: the director's frame rate is not in the clock,
 * and a key drawn four times a second could not show frames anyway.
 */
function elapsedClock(seconds: number): string {
  return formatClock(Math.floor(seconds), { mode: 'countdown' });
}
