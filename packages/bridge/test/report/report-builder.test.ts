/**
 * The report's model from a show log's records: spans read as docs/show-log.md says (stale to the subject's next
 * value, offline from a link not online to the next online, health from one severity to the next), incidents and
 * commands with their outcomes, a window whose start keeps the state the log was in, and FPS cut into buckets
 * without losing a short drop.
 */
import type { ShowLogEntry, ShowLogRecord } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { fpsSeries } from '../../src/report/fps-series.js';
import { ReportBuilder } from '../../src/report/report-builder.js';
import { renderReportHtml } from '../../src/report/render-html.js';

const DAY = '2026-11-27';
/** A record at `21:MM:SS` (or `HH:MM:SS`) on the show day, at +01:00 as a venue in Paris writes it. */
function at(time: string, entry: ShowLogEntry | { kind: 'log'; v: number; source: string; day: string; session?: string }): ShowLogRecord {
  const clock = time.length === 5 ? `21:${time}` : time;
  return { t: `${DAY}T${clock}.000+01:00`, ...entry };
}
const instant = (clock: string) => Date.parse(`${DAY}T${clock}+01:00`);
const LOG = { kind: 'log', v: 1, source: 'stagelink-bridge 0.3.0', session: 'main stage', day: DAY } as const;

function build(records: ShowLogRecord[], window: ConstructorParameters<typeof ReportBuilder>[0] = {}) {
  const builder = new ReportBuilder(window);
  for (const record of records) builder.add(record);
  return builder.finish();
}

describe('the show report model', () => {
  it('ends a stale span at its subject\'s next value record, and only that subject\'s', () => {
    const model = build([
      at('00:00', LOG),
      at('00:01', { kind: 'fps', machine: 'node-a', value: 60 }),
      at('00:01', { kind: 'fps', machine: 'node-b', value: 60 }),
      at('01:00', { kind: 'stale', subject: 'fps', machine: 'node-a', reason: 'no value for 3 s' }),
      at('01:10', { kind: 'fps', machine: 'node-b', value: 59 }),
      at('01:30', { kind: 'health', machine: 'node-a', severity: 'ok' }),
      at('01:45', { kind: 'fps', machine: 'node-a', value: 58 }),
      at('02:00', { kind: 'stale', subject: 'clock', transport: 'main', reason: 'subscription quiet' }),
      at('02:20', { kind: 'clock', transport: 'main', status: 'playing', playing: true, time: 12 }),
      at('03:00', { kind: 'fps', machine: 'node-a', value: 60 }),
      at('04:00', { kind: 'stale', subject: 'health', reason: 'health read failed' }),
      at('04:06', { kind: 'health', severity: 'ok' }),
    ]);
    const nodeA = model.machines.find((machine) => machine.name === 'node-a');
    expect(nodeA?.stale).toEqual([{ start: instant('21:01:00'), end: instant('21:01:45'), subject: 'fps', reason: 'no value for 3 s' }]);
    expect(model.incidents).toEqual([
      { machine: 'node-a', state: 'stale', start: instant('21:01:00'), end: instant('21:01:45'), durationMs: 45_000, detail: 'fps: no value for 3 s' },
      { machine: 'transport main', state: 'stale', start: instant('21:02:00'), end: instant('21:02:20'), durationMs: 20_000, detail: 'clock: subscription quiet' },
      // The session's own health: a stale record naming neither a machine nor a transport.
      { machine: 'session', state: 'stale', start: instant('21:04:00'), end: instant('21:04:06'), durationMs: 6_000, detail: 'health: health read failed' },
    ]);
  });

  it('shades every machine offline from a link that is not online to the next online one, and shows no FPS meanwhile', () => {
    const model = build([
      at('00:00', LOG),
      at('00:01', { kind: 'link', status: 'online' }),
      at('00:02', { kind: 'fps', machine: 'node-a', value: 60 }),
      at('00:10', { kind: 'link', status: 'offline' }),
      at('00:12', { kind: 'link', status: 'connecting' }),
      at('00:30', { kind: 'link', status: 'online' }),
      at('00:31', { kind: 'fps', machine: 'node-a', value: 50 }),
      at('00:40', { kind: 'fps', machine: 'node-a', value: 50.5 }),
    ]);
    expect(model.offline).toEqual([{ start: instant('21:00:10'), end: instant('21:00:30'), status: 'offline' }]);
    expect(model.incidents).toEqual([
      { machine: 'all', state: 'offline', start: instant('21:00:10'), end: instant('21:00:30'), durationMs: 20_000, detail: 'live link offline: no live value seen' },
    ]);
    const fps = model.machines[0]?.fps;
    expect(fps?.bucketMs).toBe(0);
    const valueAt = (clock: string) => fps?.avg[fps.t.lastIndexOf(instant(clock))];
    expect(valueAt('21:00:02')).toBe(60);
    expect(valueAt('21:00:10')).toBeNull();
    expect(valueAt('21:00:31')).toBe(50);
  });

  it("shades a run's first connecting without listing it as an incident, while a later loss of the link is one", () => {
    const model = build([
      at('00:00', LOG),
      at('00:00', { kind: 'link', status: 'connecting' }),
      at('00:01', { kind: 'link', status: 'online' }),
      at('00:20', { kind: 'link', status: 'connecting' }),
      at('00:25', { kind: 'link', status: 'online' }),
    ]);
    expect(model.offline.map(({ start, end }) => [start, end])).toEqual([
      [instant('21:00:00'), instant('21:00:01')],
      [instant('21:00:20'), instant('21:00:25')],
    ]);
    expect(model.incidents.map(({ state, start }) => [state, start])).toEqual([['offline', instant('21:00:20')]]);
  });

  it('shows a recorded fan failure as a hardware band under its machine: a span of the error with its reason, and an incident', () => {
    const model = build([
      at('00:00', LOG),
      at('00:01', { kind: 'fps', machine: 'node-a', value: 60 }),
      at('00:02', { kind: 'hardware', machine: 'node-a', status: 'online', severity: 'ok' }),
      at('00:02', { kind: 'hardware', machine: 'node-b', status: 'online', severity: 'ok' }),
      at('05:00', { kind: 'hardware', machine: 'node-a', status: 'online', severity: 'error', reasons: ['Fan 2 has stopped (0 RPM)'] }),
      at('07:30', { kind: 'hardware', machine: 'node-a', status: 'online', severity: 'ok' }),
      at('09:00', { kind: 'hardware', machine: 'node-b', status: 'offline', severity: 'error', reasons: ['the SMC did not answer'] }),
      at('10:00', { kind: 'fps', machine: 'node-a', value: 60 }),
    ]);
    const nodeA = model.machines.find((machine) => machine.name === 'node-a');
    expect(nodeA?.hardware).toEqual([
      { start: instant('21:00:02'), end: instant('21:05:00'), severity: 'ok', reasons: '' },
      { start: instant('21:05:00'), end: instant('21:07:30'), severity: 'error', reasons: 'Fan 2 has stopped (0 RPM)' },
      { start: instant('21:07:30'), end: null, severity: 'ok', reasons: '' },
    ]);
    expect(model.machines.find((machine) => machine.name === 'node-b')?.hardware.at(-1)).toMatchObject({ severity: 'offline', end: null });
    expect(model.incidents).toEqual([
      { machine: 'node-a', state: 'error', start: instant('21:05:00'), end: instant('21:07:30'), durationMs: 150_000, detail: 'hardware: Fan 2 has stopped (0 RPM)' },
      { machine: 'node-b', state: 'error', start: instant('21:09:00'), end: null, durationMs: 60_000, detail: 'hardware offline: the SMC did not answer' },
    ]);
    // The band is drawn under the machine's health band, for a machine whose hardware was recorded.
    const html = renderReportHtml(model);
    expect(html).toContain('<div class="health-band hardware-band" title="hardware"></div>');
  });

  it('makes health spans from changes of severity, and an incident of each warning or worse', () => {
    const model = build([
      at('00:00', LOG),
      at('00:05', { kind: 'health', machine: 'node-a', severity: 'ok' }),
      at('03:00', { kind: 'health', machine: 'node-a', severity: 'warning', states: [{ name: 'Output', severity: 'ok', detail: 'All outputs running' }, { name: 'Temperature', severity: 'warning', detail: 'GPU 84 °C' }] }),
      at('03:30', { kind: 'health', machine: 'node-a', severity: 'warning', states: [{ name: 'Temperature', severity: 'warning', detail: 'GPU 85 °C' }] }),
      at('04:00', { kind: 'health', machine: 'node-a', severity: 'error', states: [{ name: 'Temperature', severity: 'error' }] }),
      at('05:00', { kind: 'health', machine: 'node-a', severity: 'ok' }),
      at('06:00', { kind: 'health', severity: 'warning' }),
      at('07:00', { kind: 'fps', machine: 'node-a', value: 60 }),
    ]);
    expect(model.machines[0]?.health.map(({ severity, start, end }) => [severity, start, end])).toEqual([
      ['ok', instant('21:00:05'), instant('21:03:00')],
      ['warning', instant('21:03:00'), instant('21:04:00')],
      ['error', instant('21:04:00'), instant('21:05:00')],
      ['ok', instant('21:05:00'), null],
    ]);
    expect(model.incidents.map(({ machine, state, durationMs, end, detail }) => ({ machine, state, durationMs, end, detail }))).toEqual([
      { machine: 'node-a', state: 'warning', durationMs: 60_000, end: instant('21:04:00'), detail: 'Temperature (warning): GPU 84 °C' },
      { machine: 'node-a', state: 'error', durationMs: 60_000, end: instant('21:05:00'), detail: 'Temperature (error)' },
      // Still going at the end of the log: its duration runs to the last record.
      { machine: 'session', state: 'warning', durationMs: 60_000, end: null, detail: 'health warning' },
    ]);
  });

  it('gives each command its outcome: ok, failed with its error, landed late, outcome unknown', () => {
    const model = build([
      at('00:00', LOG),
      at('03:00', { kind: 'command', command: 'transport/play', via: 'mqtt', transport: 'main', id: 'go-1', ok: true, ms: 12 }),
      at('03:01', { kind: 'command', command: 'transport/gotoTrack', via: 'osc', transport: 'main', ok: false, error: 'No track "Finale"', code: 'STAGELINK_ERR_NOT_FOUND' }),
      at('03:02', { kind: 'command', command: 'transport/play', transport: 'side', ok: false, error: 'late', code: 'STAGELINK_ERR_LATE_LANDED', outcome: 'landed', ms: 2400 }),
      at('03:03', { kind: 'command', command: 'transport/play', transport: 'lobby', ok: false, error: 'late', code: 'STAGELINK_ERR_LATE_UNKNOWN', outcome: 'unknown' }),
      at('03:04', { kind: 'director', machine: 'node-b', previous: 'node-a' }),
    ]);
    expect(model.commands.map(({ command, target, outcome, error, code, ms, via }) => ({ command, target, outcome, error, code, ms, via }))).toEqual([
      { command: 'transport/play', target: 'main', outcome: 'ok', error: null, code: null, ms: 12, via: 'mqtt' },
      { command: 'transport/gotoTrack', target: 'main', outcome: 'failed', error: 'No track "Finale"', code: 'STAGELINK_ERR_NOT_FOUND', ms: null, via: 'osc' },
      { command: 'transport/play', target: 'side', outcome: 'landed late', error: 'late', code: 'STAGELINK_ERR_LATE_LANDED', ms: 2400, via: null },
      { command: 'transport/play', target: 'lobby', outcome: 'outcome unknown', error: 'late', code: 'STAGELINK_ERR_LATE_UNKNOWN', ms: null, via: null },
    ]);
    expect(model.markers.map(({ kind, label, ok }) => ({ kind, label, ok }))).toEqual([
      { kind: 'command', label: 'transport/play main: ok', ok: true },
      { kind: 'command', label: 'transport/gotoTrack main: failed', ok: false },
      { kind: 'command', label: 'transport/play side: landed late', ok: false },
      { kind: 'command', label: 'transport/play lobby: outcome unknown', ok: false },
      { kind: 'director', label: 'director node-b (was node-a)', ok: undefined },
    ]);
  });

  it('starts a window in the state the log was in: a warning from before --from is an incident from its real start', () => {
    const records = [
      at('00:00', LOG),
      at('00:01', { kind: 'fps', machine: 'node-a', value: 55 }),
      at('00:30', { kind: 'health', machine: 'node-a', severity: 'warning' }),
      at('01:00', { kind: 'command', command: 'transport/play', transport: 'main', ok: true }),
      at('05:00', { kind: 'command', command: 'transport/stop', transport: 'main', ok: true }),
      at('06:00', { kind: 'health', machine: 'node-a', severity: 'ok' }),
      at('09:00', { kind: 'command', command: 'transport/play', transport: 'main', ok: true }),
      at('12:00', { kind: 'fps', machine: 'node-a', value: 60 }),
    ];
    const model = build(records, { from: new Date(instant('21:03:00')), to: new Date(instant('21:10:00')) });
    expect([model.from, model.to]).toEqual([instant('21:03:00'), instant('21:10:00')]);
    expect(model.commands.map(({ command }) => command)).toEqual(['transport/stop', 'transport/play']);
    expect(model.incidents).toEqual([{ machine: 'node-a', state: 'warning', start: instant('21:00:30'), end: instant('21:06:00'), durationMs: 330_000, detail: 'health warning' }]);
    // FPS at the window's start is the value held since 21:00:01; the value written at 21:12 is after the window.
    const fps = model.machines[0]?.fps;
    expect(fps?.t[0]).toBe(instant('21:03:00'));
    expect(fps?.avg[0]).toBe(55);
    expect(fps?.values).toBe(0);
    expect(fps?.avg).not.toContain(60);
  });

  it('cuts a long show into buckets that keep a one-second drop as its minimum', () => {
    const start = instant('21:00:00');
    const steps = [];
    for (let second = 0; second < 8 * 3600; second += 0.25) steps.push({ at: start + second * 1000, value: 60 });
    // One second at 31 fps in the finale, 7 h 50 min in.
    const drop = start + (7 * 3600 + 50 * 60) * 1000;
    steps.splice(steps.findIndex((step) => step.at === drop), 4, ...[0, 250, 500, 750].map((ms) => ({ at: drop + ms, value: 31 })));
    const series = fpsSeries(steps, start, start + 8 * 3600 * 1000, 2000);
    expect(series.t.length).toBeLessThanOrEqual(2001);
    expect(series.bucketMs).toBe(14_400);
    expect(Math.min(...series.min.filter((value) => value !== null))).toBe(31);
    const dropBucket = series.min.indexOf(31);
    expect(series.t[dropBucket]).toBeLessThanOrEqual(drop);
    // The average of that bucket: one second of 31 in 14.4 s of 60.
    expect(series.avg[dropBucket]).toBeCloseTo((31 * 1 + 60 * 13.4) / 14.4, 1);
    expect(series.avg[0]).toBe(60);
  });

  it('keeps no value through a restart of the recording, and marks it', () => {
    const model = build([
      at('00:00', LOG),
      at('00:01', { kind: 'fps', machine: 'node-a', value: 60 }),
      at('05:00', { ...LOG, source: 'stagelink-bridge 0.3.1' }),
      at('05:02', { kind: 'fps', machine: 'node-a', value: 59 }),
    ]);
    const fps = model.machines[0]?.fps;
    expect(fps?.avg[fps.t.indexOf(instant('21:05:00'))]).toBeNull();
    expect(model.markers).toEqual([{ at: instant('21:05:00'), kind: 'recording', label: 'recording started again (stagelink-bridge 0.3.1)' }]);
    expect(model.sources).toEqual(['stagelink-bridge 0.3.0', 'stagelink-bridge 0.3.1']);
  });
});
