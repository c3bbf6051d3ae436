import { writeFile } from 'node:fs/promises';
import { DAY_STARTS_AT_HOUR, readShowLog, type ShowLogRecord } from '@stagelink/core';
import { OptionError } from '../options.js';
import { ReportBuilder } from './report-builder.js';
import type { ReportModel } from './report-model.js';
import { renderReportHtml } from './render-html.js';
import { offsetMinutesOf, resolveTimeArg, wallClock, type TimeArg } from './report-times.js';

export interface ShowReportOptions {
  /** Start of the window: a clock time on the log's show day, or an instant. */
  from?: TimeArg;
  to?: TimeArg;
  /** Most FPS points per machine. */
  maxPoints?: number;
  /** A line of progress, about once a second while a big log is read. */
  onProgress?(line: string): void;
}

const PROGRESS_EVERY_MS = 1000;

/**
 * Reads a show log (a file or a folder) into a report. A clock time in `from`/`to` is on the show day of the log's
 * first record, at that record's offset; reading stops at the window's end. A window that is empty or outside
 * the log is an OptionError, with what the log holds.
 */
export async function buildShowReport(path: string, options: ShowReportOptions = {}): Promise<ReportModel> {
  let skipped = 0;
  const records = readShowLog(path, { onSkipped: () => void skipped++ })[Symbol.asyncIterator]();
  let builder: ReportBuilder;
  let firstAt: number;
  let lastAt: number;
  try {
    const first = await records.next();
    if (first.done) throw new OptionError(`${path} holds no show log record (${skipped} unreadable lines).`);
    builder = new ReportBuilder({ ...resolveWindow(first.value, options), ...(options.maxPoints ? { maxPoints: options.maxPoints } : {}) });
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

/** The window's instants: a clock time on the show day of the first record (its `log` record's `day`). */
function resolveWindow(first: ShowLogRecord, { from, to }: ShowReportOptions): { from?: Date; to?: Date } {
  const offset = offsetMinutesOf(first.t);
  const day = first.kind === 'log' ? first.day : showDayOfText(first.t);
  const window = { ...(from ? { from: resolveTimeArg(from, day, offset) } : {}), ...(to ? { to: resolveTimeArg(to, day, offset) } : {}) };
  if (window.from && window.to && window.from >= window.to) {
    throw new OptionError(`--from ${from?.text} is not before --to ${to?.text} (on the show day ${day}, where a time before 0${DAY_STARTS_AT_HOUR}:00 is after midnight).`);
  }
  return window;
}

/** The show day of a log time as written: its own date, or the day before when before the hour a show day starts. */
function showDayOfText(t: string): string {
  const date = t.slice(0, 10);
  if (Number(t.slice(11, 13)) >= DAY_STARTS_AT_HOUR) return date;
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}
