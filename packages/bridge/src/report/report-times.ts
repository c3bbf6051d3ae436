import { DAY_STARTS_AT_HOUR } from '@stagelink/core';

/**
 * Times as a venue says them. A show log writes local time with its offset (`2026-11-27T21:03:00.120+01:00`); the
 * report shows that wall-clock time whatever the viewer's zone, and `--from 21:00` means 21:00 on the show day of
 * the log's newest show day, where a time before 06:00 is after midnight of that show day (a show past midnight
 * is one show day). A date alone is a whole show day: from its 06:00 to the next morning's.
 */

/** A time given on the command line: a wall-clock time on the log's newest show day, a show day, or a full instant. */
export type TimeArg =
  | { kind: 'clock'; hours: number; minutes: number; seconds: number; text: string }
  | { kind: 'day'; date: string; text: string }
  | { kind: 'instant'; date: string; time: string; zone?: string; text: string };

/** Which end of the window a time is: a show day starts the window at its start, and ends it at its end. */
export type WindowEdge = 'from' | 'to';

const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
const ISO = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(Z|[+-]\d{2}:\d{2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const OFFSET = /(Z|[+-]\d{2}:\d{2})$/;

/** Reads `21:00`, `21:00:30`, `2026-11-27`, `2026-11-27T21:00` or `2026-11-27T21:00:00+01:00`; undefined when it is none of them. */
export function parseTimeArg(text: string): TimeArg | undefined {
  if (DATE.test(text)) {
    // Date.parse rolls 2026-02-30 over to March: a real date prints back as itself.
    const date = new Date(`${text}T12:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text ? { kind: 'day', date: text, text } : undefined;
  }
  const clock = CLOCK.exec(text);
  if (clock) {
    const [hours, minutes, seconds] = [Number(clock[1]), Number(clock[2]), Number(clock[3] ?? 0)];
    if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
    return { kind: 'clock', hours, minutes, seconds, text };
  }
  const iso = ISO.exec(text);
  if (!iso?.[1] || !iso[2]) return undefined;
  const arg: TimeArg = { kind: 'instant', date: iso[1], time: iso[2], text, ...(iso[3] ? { zone: iso[3] } : {}) };
  return Number.isNaN(Date.parse(`${arg.date}T${arg.time}${arg.zone ?? 'Z'}`)) ? undefined : arg;
}

/** The UTC offset a log time was written with, in minutes east of UTC (`+01:00` is 60). */
export function offsetMinutesOf(t: string): number {
  const zone = OFFSET.exec(t)?.[1];
  if (!zone || zone === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  return sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
}

/** `+01:00` from 60. */
export function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/**
 * The instant a command-line time names: a clock time on the show day `day` (`YYYY-MM-DD`) at the log's offset,
 * the next calendar day when it is before the hour the show day starts; a show day's start (`from`) or end (`to`,
 * the next show day's start); a full time without an offset at the log's.
 */
export function resolveTimeArg(arg: TimeArg, day: string, offsetMinutes: number, edge: WindowEdge = 'from'): Date {
  if (arg.kind === 'instant') return new Date(`${arg.date}T${arg.time}${arg.zone ?? offsetText(offsetMinutes)}`);
  const [year, month, date] = (arg.kind === 'day' ? arg.date : day).split('-').map(Number) as [number, number, number];
  if (arg.kind === 'day') return new Date(Date.UTC(year, month - 1, date + (edge === 'to' ? 1 : 0), DAY_STARTS_AT_HOUR) - offsetMinutes * 60_000);
  const afterMidnight = arg.hours < DAY_STARTS_AT_HOUR ? 1 : 0;
  const wallClockAsUtc = Date.UTC(year, month - 1, date + afterMidnight, arg.hours, arg.minutes, arg.seconds);
  return new Date(wallClockAsUtc - offsetMinutes * 60_000);
}

/** The show day an instant falls in, at an offset: its wall-clock date, the day before when before the hour a show day starts. */
export function showDayAt(at: number, offsetMinutes: number): string {
  const wall = new Date(at + offsetMinutes * 60_000);
  if (wall.getUTCHours() < DAY_STARTS_AT_HOUR) wall.setUTCDate(wall.getUTCDate() - 1);
  return wall.toISOString().slice(0, 10);
}

/** The calendar date a time names, when it names one (`2026-11-27` of `2026-11-27T21:00`). */
export function dateOfTimeArg(arg: TimeArg): string | undefined {
  return arg.kind === 'clock' ? undefined : arg.date;
}

/** The wall-clock time of an instant at an offset, `21:03:00`, or with its date, `2026-11-27 21:03:00`. */
export function wallClock(at: number, offsetMinutes: number, withDate = false): string {
  const iso = new Date(at + offsetMinutes * 60_000).toISOString();
  return withDate ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso.slice(11, 19);
}

/** A duration as a person reads it: `850 ms`, `42 s`, `3 min 05 s`, `1 h 02 min`. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
