import { writeFile } from 'node:fs/promises';
import { DAY_STARTS_AT_HOUR, readShowLog, showLogFiles } from '@stagelink/core';
import { OptionError } from '../options.js';
import { ReportBuilder } from './report-builder.js';
import type { ReportModel } from './report-model.js';
import { renderReportHtml } from './render-html.js';
import { dateOfTimeArg, offsetMinutesOf, resolveTimeArg, wallClock, type TimeArg } from './report-times.js';

export interface ShowReportOptions {
  /** Start of the window: a clock time on the log's newest show day, a show day, or an instant. */
  from?: TimeArg;
  to?: TimeArg;
  /** Most FPS points per machine. */
  maxPoints?: number;
  /** A line of progress, about once a second while a big log is read. */
  onProgress?(line: string): void;
}

const PROGRESS_EVERY_MS = 1000;

/**
 * Reads a show log (a file or a folder) into a report. A clock time in `from`/`to` is on the newest show day of the
 * log, at that day's offset; reading stops at the window's end, and of what comes before the window only the state
 * it starts in is kept, so a folder of weeks is read in the memory of its window. A window that is empty or outside
 * the log is an OptionError, with what the log holds.
 */
export async function buildShowReport(path: string, options: ShowReportOptions = {}): Promise<ReportModel> {
  const window = resolveWindow(await showDaysOf(path), options);
  let skipped = 0;
  const records = readShowLog(path, { onSkipped: () => void skipped++ })[Symbol.asyncIterator]();
  let builder: ReportBuilder;
  let firstAt: number;
  let lastAt: number;
  try {
    const first = await records.next();
    if (first.done) throw new OptionError(`${path} holds no show log record (${skipped} unreadable lines).`);
    builder = new ReportBuilder({ ...window, ...(options.maxPoints ? { maxPoints: options.maxPoints } : {}) });
    firstAt = lastAt = Date.parse(first.value.t);
    builder.add(first.value);
    let read = 1;
    let toldAt = performance.now();
    for (let next = await records.next(); !next.done && !builder.pastWindow; next = await records.next()) {
      builder.add(next.value);
      lastAt = Date.parse(next.value.t);
      if (++read % 20_000 === 0 && options.onProgress && performance.now() - toldAt >= PROGRESS_EVERY_MS) {
        toldAt = performance.now();
        options.onProgress(`read ${read.toLocaleString('en-US')} records, up to ${next.value.t.slice(0, 19).replace('T', ' ')}`);
      }
    }
  } finally {
    await records.return?.(undefined);
  }
  builder.skipped = skipped;
  const model = builder.finish();
  if (builder.inWindow === 0) {
    const at = (instant: number) => wallClock(instant, model.offsetMinutes, true);
    const range = builder.pastWindow ? `its first record is at ${at(firstAt)}` : `it runs from ${at(firstAt)} to ${at(lastAt)}`;
    throw new OptionError(`Nothing in ${path} between ${at(model.from)} and ${at(model.to)}: ${range}.`);
  }
  return model;
}

/** Builds the report and writes it as one HTML page; resolves with the page's size and the model drawn. */
export async function writeShowReport(path: string, output: string, options: ShowReportOptions = {}): Promise<{ model: ReportModel; bytes: number }> {
  const model = await buildShowReport(path, options);
  const html = renderReportHtml(model);
  await writeFile(output, html, 'utf8');
  return { model, bytes: Buffer.byteLength(html) };
}

/** A show day of the log: the day its file was written for, and the offset its times were written at. */
interface ShowDay {
  day: string;
  offsetMinutes: number;
}

/** The show days of a log, oldest first, each from its file's first record (one file per show day). */
async function showDaysOf(path: string): Promise<ShowDay[]> {
  const days: ShowDay[] = [];
  for (const file of await showLogFiles(path)) {
    for await (const first of readShowLog(file)) {
      days.push({ day: first.kind === 'log' ? first.day : showDayOfText(first.t), offsetMinutes: offsetMinutesOf(first.t) });
      break;
    }
  }
  if (days.length === 0) throw new OptionError(`${path} holds no show log record.`);
  return days;
}

/**
 * The window's instants: a clock time on the newest show day, a date or a time without an offset at the offset of
 * that day's file (the newest's when the log has no such day: a folder of weeks may cross a change of summer time).
 */
function resolveWindow(days: readonly ShowDay[], { from, to }: ShowReportOptions): { from?: Date; to?: Date } {
  const newest = days.at(-1) as ShowDay;
  const resolve = (arg: TimeArg, edge: 'from' | 'to') => {
    const date = dateOfTimeArg(arg);
    const offset = days.find((day) => day.day === date)?.offsetMinutes ?? newest.offsetMinutes;
    return resolveTimeArg(arg, newest.day, offset, edge);
  };
  const window = { ...(from ? { from: resolve(from, 'from') } : {}), ...(to ? { to: resolve(to, 'to') } : {}) };
  if (window.from && window.to && window.from >= window.to) {
    throw new OptionError(`--from ${from?.text} is not before --to ${to?.text} (a bare time is on the show day ${newest.day}, where a time before 0${DAY_STARTS_AT_HOUR}:00 is after midnight).`);
  }
  return window;
}

/** The show day of a log time as written: its own date, or the day before when before the hour a show day starts. */
function showDayOfText(t: string): string {
  const date = t.slice(0, 10);
  if (Number(t.slice(11, 13)) >= DAY_STARTS_AT_HOUR) return date;
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}
