/**
 * A folder of several show days, as a bridge that records every night leaves it: `--from/--to` as a date, a date
 * and time, or a bare time (on the newest show day), and only the window held while the weeks before it are read.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readShowLog, ShowRecorder, type ShowLogEntry } from '@stagelink/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportBuilder } from '../../src/report/report-builder.js';
import { parseTimeArg, type TimeArg } from '../../src/report/report-times.js';
import { buildShowReport } from '../../src/report/show-report.js';

const VENUE_ZONE = 'Europe/Paris';
const DAYS = ['2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29', '2026-11-30'];
const MACHINES = ['actor-1', 'actor-2'];

const time = (text: string): TimeArg => {
  const arg = parseTimeArg(text);
  if (!arg) throw new Error(`${text} did not parse`);
  return arg;
};
const iso = (instant: number) => new Date(instant).toISOString();

/** Each show day: the link online at 20:00, FPS every 10 s until 23:30, a cue at 21:30 and one past midnight; a warning on the 28th. */
async function writeShowDays(dir: string): Promise<void> {
  let now = new Date();
  const recorder = new ShowRecorder({ dir, source: 'show-days-test 1.0', session: 'main stage', now: () => now });
  const record = (local: string, entry: ShowLogEntry) => {
    now = new Date(local);
    recorder.record(entry);
  };
  for (const day of DAYS) {
    const next = new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    record(`${day}T20:00:00`, { kind: 'link', status: 'online' });
    for (let second = 0; second < 3.5 * 3600; second += 10) {
      const at = new Date(Date.parse(`${day}T20:00:00`) + second * 1000);
      for (const machine of MACHINES) {
        now = at;
        recorder.record({ kind: 'fps', machine, value: day === '2026-11-30' && second === 4500 ? 30 : 60 - (second % 20 === 0 ? 0 : 1) });
      }
      if (second === 3600 && day === '2026-11-28') record(`${day}T21:00:00`, { kind: 'health', machine: 'actor-1', severity: 'warning' });
      if (second === 4200 && day === '2026-11-28') record(`${day}T21:10:00`, { kind: 'health', machine: 'actor-1', severity: 'ok' });
      if (second === 5400) record(`${day}T21:30:00`, { kind: 'command', command: 'transport/play', transport: 'main', id: `go-${day}`, ok: true, ms: 9 });
    }
    record(`${next}T00:30:00`, { kind: 'command', command: 'transport/stop', transport: 'main', id: `stop-${day}`, ok: true, ms: 7 });
  }
  await recorder.close();
}

describe('a show report over many show days', () => {
  let dir: string;
  const previousZone = process.env.TZ;

  beforeAll(async () => {
    process.env.TZ = VENUE_ZONE;
    dir = await mkdtemp(join(tmpdir(), 'stagelink-show-days-'));
    await writeShowDays(dir);
  });

  afterAll(async () => {
    process.env.TZ = previousZone;
    await rm(dir, { recursive: true, force: true });
  });

  it('puts a bare time on the newest show day of the folder, not the oldest', async () => {
    const model = await buildShowReport(dir, { from: time('21:00'), to: time('22:00') });
    expect([iso(model.from), iso(model.to)]).toEqual(['2026-11-30T20:00:00.000Z', '2026-11-30T21:00:00.000Z']);
    expect(model.commands.map(({ id }) => id)).toEqual(['go-2026-11-30']);
    expect(model.days).toEqual(['2026-11-30']);
    expect(model.machines.map(({ fps }) => fps.lowest)).toEqual([30, 30]);
    // After midnight is still the newest show day.
    const night = await buildShowReport(dir, { from: time('00:00'), to: time('01:00') });
    expect(night.commands.map(({ id }) => id)).toEqual(['stop-2026-11-30']);
  });

  it('takes a date as a whole show day, from 06:00 to 06:00 the next morning', async () => {
    const model = await buildShowReport(dir, { from: time('2026-11-28'), to: time('2026-11-28') });
    expect([iso(model.from), iso(model.to)]).toEqual(['2026-11-28T05:00:00.000Z', '2026-11-29T05:00:00.000Z']);
    expect(model.commands.map(({ id }) => id)).toEqual(['go-2026-11-28', 'stop-2026-11-28']);
    expect(model.days).toEqual(['2026-11-28']);
    expect(model.incidents.map(({ machine, state, durationMs }) => [machine, state, durationMs])).toEqual([['actor-1', 'warning', 600_000]]);

    const twoDays = await buildShowReport(dir, { from: time('2026-11-28'), to: time('2026-11-29') });
    expect(twoDays.commands.map(({ id }) => id)).toEqual(['go-2026-11-28', 'stop-2026-11-28', 'go-2026-11-29', 'stop-2026-11-29']);
    expect(twoDays.days).toEqual(['2026-11-28', '2026-11-29']);

    const onward = await buildShowReport(dir, { from: time('2026-11-29') });
    expect(onward.commands.map(({ id }) => id)).toEqual(['go-2026-11-29', 'stop-2026-11-29', 'go-2026-11-30', 'stop-2026-11-30']);
  });

  it('takes a date and time, at the log\'s offset', async () => {
    const model = await buildShowReport(dir, { from: time('2026-11-27T21:00'), to: time('2026-11-27T22:00') });
    expect([iso(model.from), iso(model.to)]).toEqual(['2026-11-27T20:00:00.000Z', '2026-11-27T21:00:00.000Z']);
    expect(model.commands.map(({ id }) => id)).toEqual(['go-2026-11-27']);
    expect(model.days).toEqual(['2026-11-27']);
    // The window starts in the state the log was in: FPS is known from its start.
    expect(model.machines[0]?.fps.avg[0]).not.toBeNull();
  });

  it('holds only the window while it reads the show days before it', async () => {
    const window = { from: new Date('2026-11-30T21:00:00+01:00'), to: new Date('2026-11-30T22:00:00+01:00') };
    const builder = new ReportBuilder(window);
    let inWindow = 0;
    for await (const record of readShowLog(dir)) {
      builder.add(record);
      const at = Date.parse(record.t);
      if (at >= window.from.getTime() && at < window.to.getTime()) inWindow++;
    }
    expect(inWindow).toBeGreaterThan(700);
    // What is held: the window's records, and at most the state each machine starts the window in.
    expect(builder.held).toBeLessThanOrEqual(inWindow + 2 * MACHINES.length);
    expect(builder.finish().machines).toHaveLength(2);
  });
});
