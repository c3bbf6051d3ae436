/**
 * The show clock on the desk: per transport variables read from core's clock on the module's own timer, and what
 * the clock feedbacks depend on, so each tick re-checks only the feedback types whose inputs changed. A clock that
 * is stale or offline shows `stale` or `no link` in its times, as every other value that is not live does (a
 * button that shows a countdown must never show one that stopped as if it ran), and `true` in `<t>_clock_stale`.
 */
import type { CompanionVariableDefinitions, CompanionVariableValues } from '@companion-module/base';
import { formatClock, type ShowClockSnapshot } from '@stagelink/core';
import { shownWhenNotLive } from '../show/freshness.js';
import type { Show } from '../show/show.js';

/** How often the clock variables are read: a countdown changes its digits at most this often. */
export const CLOCK_TICK_MS = 250;
/** A blinking feedback is on for this long, then off for as long. */
export const BLINK_HALF_PERIOD_MS = 500;

export const CLOCK_FEEDBACK_IDS = ['clock_remaining_below', 'clock_in_section', 'clock_stale'] as const;
export type ClockFeedbackId = (typeof CLOCK_FEEDBACK_IDS)[number];

export const CLOCK_VARIABLES = {
  time_tc: 'playhead (timecode)',
  time_seconds: 'playhead (seconds)',
  track_remaining_tc: 'track remaining (timecode)',
  section_index: 'current section (index)',
  section_remaining_tc: 'section remaining (timecode)',
  section_remaining_seconds: 'section remaining (seconds)',
  section_remaining_countdown: 'section remaining (m:ss countdown)',
  next_section_index: 'next section (index)',
  cue_next: 'next cue (tag or note)',
  cue_next_in_tc: 'time to the next cue (timecode)',
  clock_stale: 'clock not live (stale or offline)',
} as const;

export function clockVariableDefinitions(show: Show): CompanionVariableDefinitions {
  const definitions: CompanionVariableDefinitions = {};
  for (const transport of show.transports.values()) {
    for (const [suffix, name] of Object.entries(CLOCK_VARIABLES)) definitions[`transport_${transport.id}_${suffix}`] = { name: `${transport.name}: ${name}` };
  }
  return definitions;
}

/** Whether the clock shows a live playhead: nothing else is shown as moving or fed to a feedback. */
export const isLiveClock = (clock: ShowClockSnapshot | undefined): clock is ShowClockSnapshot => clock?.status === 'online';

/** Seconds as a number with one decimal, as core's `formatClock` shows them. */
const seconds = (value: number): number => Number(formatClock(value, { mode: 'seconds' }));

export function clockValues(show: Show, frameRate: number): CompanionVariableValues {
  const values: CompanionVariableValues = {};
  for (const transport of show.transports.values()) {
    const prefix = `transport_${transport.id}_`;
    const clock = transport.clock;
    const shown = isLiveClock(clock) ? liveClockValues(clock, frameRate) : notLiveClockValues(clock);
    for (const [suffix, value] of Object.entries(shown)) values[`${prefix}${suffix}`] = value;
    values[`${prefix}clock_stale`] = !isLiveClock(clock);
  }
  return values;
}

type ClockValues = Record<Exclude<keyof typeof CLOCK_VARIABLES, 'clock_stale'>, string | number>;

function liveClockValues(clock: ShowClockSnapshot, frameRate: number): ClockValues {
  const timecode = (value: number | undefined): string => (value === undefined ? '' : formatClock(value, { fps: frameRate }));
  const { section } = clock;
  return {
    time_tc: timecode(clock.time),
    time_seconds: seconds(clock.time),
    track_remaining_tc: timecode(clock.trackRemaining),
    section_index: section ? section.index : '',
    section_remaining_tc: timecode(section?.remaining),
    section_remaining_seconds: section ? seconds(section.remaining) : '',
    section_remaining_countdown: section ? formatClock(section.remaining, { mode: 'countdown' }) : '',
    next_section_index: clock.nextSection ? clock.nextSection.index : '',
    cue_next: clock.cue?.next?.value ?? '',
    cue_next_in_tc: timecode(clock.cue?.nextIn),
  };
}

/** Every time of a clock that is not live says why: empty before its first reading, `stale` or `no link` after. */
function notLiveClockValues(clock: ShowClockSnapshot | undefined): ClockValues {
  const word = clock === undefined ? '' : shownWhenNotLive(clock.status === 'offline' ? 'no link' : 'stale');
  const suffixes = Object.keys(CLOCK_VARIABLES).filter((suffix) => suffix !== 'clock_stale') as (keyof ClockValues)[];
  return Object.fromEntries(suffixes.map((suffix) => [suffix, word])) as ClockValues;
}

/** Whether a blinking feedback is in its on half now. */
export const blinkOn = (nowMs = Date.now()): boolean => Math.floor(nowMs / BLINK_HALF_PERIOD_MS) % 2 === 0;

/**
 * What each clock feedback type reads, as one comparable key per type: a type whose key did not change since the
 * last tick needs no check. The section remaining goes in at the tenth of a second its variable shows; the blink
 * phase only while some live clock has a section, the only time a blink can show.
 */
export function clockFeedbackInputs(show: Show): Record<ClockFeedbackId, string> {
  const remaining: string[] = [];
  const sections: string[] = [];
  const stale: string[] = [];
  let blinking = false;
  for (const transport of show.transports.values()) {
    const clock = transport.clock;
    const live = isLiveClock(clock);
    const section = live ? clock.section : undefined;
    if (section) blinking = true;
    remaining.push(`${transport.name}=${section ? seconds(section.remaining) : ''}`);
    sections.push(`${transport.name}=${section ? section.index : ''}`);
    stale.push(`${transport.name}=${live}`);
  }
  return {
    clock_remaining_below: `${remaining.join('\u0000')}|${blinking ? blinkOn() : ''}`,
    clock_in_section: sections.join('\u0000'),
    clock_stale: stale.join('\u0000'),
  };
}
