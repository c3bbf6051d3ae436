/**
 * `stagelink-report` as a user runs it (the built bin, in a process of its own, in another time zone than the log's)
 * on logs written by core's ShowRecorder: the page it writes, the model embedded in it, the window asked for, a torn
 * last line skipped, bad arguments refused with the usage and exit code 2, nothing loaded from the network when
 * the page opens, and text from the log that cannot close the page's script element.
 */
import { execFile } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ShowRecorder, type ShowLogEntry } from '@stagelink/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportModel } from '../../src/report/report-model.js';

const CLI = fileURLToPath(new URL('../../dist/report-cli.mjs', import.meta.url));
/** The venue's zone, as the recorder writes times; the report runs in another to show it keeps the log's. */
const VENUE_ZONE = 'Europe/Paris';
const VIEWER_ZONE = 'America/New_York';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runReport(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, TZ: VIEWER_ZONE } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Writes entries with ShowRecorder, each at its local venue time (`2026-11-27 21:03:00`). */
async function writeLog(dir: string, entries: [string, ShowLogEntry][]): Promise<void> {
  let now = new Date();
  const recorder = new ShowRecorder({ dir, source: 'report-test 1.0', session: 'main stage', now: () => now });
  for (const [time, entry] of entries) {
    now = new Date(time.replace(' ', 'T'));
    recorder.record(entry);
  }
  await recorder.close();
}

function embeddedModel(html: string): ReportModel {
  const match = /<script type="application\/json" id="stagelink-report-data">([\s\S]*?)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error('The page has no embedded report data.');
  return JSON.parse(match[1]) as ReportModel;
}

describe('stagelink-report', () => {
  let dir: string;
  const previousZone = process.env.TZ;

  beforeAll(async () => {
    process.env.TZ = VENUE_ZONE;
    dir = await mkdtemp(join(tmpdir(), 'stagelink-report-'));
    const entries: [string, ShowLogEntry][] = [
      ['2026-11-27 21:00:00', { kind: 'link', status: 'online' }],
      ['2026-11-27 21:00:01', { kind: 'fps', machine: 'actor-1', value: 60 }],
      ['2026-11-27 21:00:01', { kind: 'fps', machine: 'actor-2', value: 60 }],
      ['2026-11-27 21:00:02', { kind: 'health', machine: 'actor-1', severity: 'ok' }],
      ['2026-11-27 21:02:30', { kind: 'health', machine: 'actor-1', severity: 'warning', states: [{ name: 'Temperature', severity: 'warning', detail: 'GPU 84 °C' }] }],
      ['2026-11-27 21:03:00', { kind: 'command', command: 'transport/play', via: 'mqtt', transport: 'main', id: 'go-finale', ok: false, error: 'answered late', code: 'STAGELINK_ERR_LATE_LANDED', outcome: 'landed', ms: 2300 }],
      ['2026-11-27 21:03:10', { kind: 'fps', machine: 'actor-2', value: 41 }],
      ['2026-11-27 21:03:11', { kind: 'fps', machine: 'actor-2', value: 60 }],
      ['2026-11-27 21:04:00', { kind: 'stale', subject: 'fps', machine: 'actor-2', reason: 'no value for 3 s' }],
      ['2026-11-27 21:04:20', { kind: 'fps', machine: 'actor-2', value: 60 }],
      ['2026-11-27 21:05:00', { kind: 'link', status: 'offline' }],
      ['2026-11-27 21:05:40', { kind: 'link', status: 'online' }],
      ['2026-11-27 21:06:00', { kind: 'director', machine: 'actor-2', previous: 'actor-1' }],
      ['2026-11-27 21:07:00', { kind: 'health', machine: 'actor-1', severity: 'ok' }],
      // Past midnight, still the show day of the 27th.
      ['2026-11-28 00:30:00', { kind: 'command', command: 'transport/stop', transport: 'main', ok: true, ms: 8 }],
      ['2026-11-28 00:31:00', { kind: 'fps', machine: 'actor-1', value: 59 }],
    ];
    await writeLog(dir, entries);
    // A crash mid-write: the last line is torn.
    await appendFile(join(dir, 'show-2026-11-27.ndjson'), '{"t":"2026-11-28T00:31:01.000+01:00","kind":"fps","mach');
  });

  afterAll(async () => {
    process.env.TZ = previousZone;
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the page from a recorded log, skips the torn last line, and says where it wrote it', async () => {
    const output = join(dir, 'report.html');
    const run = await runReport([dir, '-o', output]);
    expect(run.stderr).toContain(`wrote ${output}`);
    expect(run.stderr).toContain('(1 unreadable line skipped)');
    expect(run.code).toBe(0);
    const html = await readFile(output, 'utf8');
    const model = embeddedModel(html);
    expect(model.skipped).toBe(1);
    expect(model.offsetMinutes).toBe(60);
    expect(model.machines.map((machine) => machine.name)).toEqual(['actor-1', 'actor-2']);
    expect(model.machines[1]?.fps.lowest).toBe(41);
    expect(model.incidents.map(({ machine, state, durationMs }) => [machine, state, durationMs])).toEqual([
      ['actor-1', 'warning', 270_000],
      ['actor-2', 'stale', 20_000],
      ['all', 'offline', 40_000],
    ]);
    expect(model.commands.map(({ command, outcome }) => [command, outcome])).toEqual([
      ['transport/play', 'landed late'],
      ['transport/stop', 'ok'],
    ]);
    // The tables show the venue's wall-clock time as the log wrote it, not the zone the report ran in.
    expect(html).toMatch(/<td class="time">21:03:00<\/td><td>transport\/play<\/td><td>main<\/td><td>mqtt<\/td><td class="outcome-landed-late">landed late<\/td>/);
    expect(html).toMatch(/<td>actor-1<\/td><td class="state-warning">warning<\/td><td class="time">21:02:30<\/td><td class="number">4 min 30 s<\/td>/);
    expect(html).toContain('<td class="time">00:30:00</td><td>transport/stop</td>');
    expect(html).toContain('data-machine="actor-2"');
  });

  it('draws only the window asked for, with HH:MM on the log\'s show day and a time before 06:00 after its midnight', async () => {
    const output = join(dir, 'window.html');
    const evening = await runReport([dir, '--from', '21:02', '--to', '21:05:30', '--output', output]);
    expect(evening.code).toBe(0);
    const model = embeddedModel(await readFile(output, 'utf8'));
    expect(new Date(model.from).toISOString()).toBe('2026-11-27T20:02:00.000Z');
    expect(new Date(model.to).toISOString()).toBe('2026-11-27T20:05:30.000Z');
    expect(model.commands.map(({ command }) => command)).toEqual(['transport/play']);
    // The warning and the offline span are still going at the window's end: the log after it is not read.
    expect(model.incidents.map(({ state, end }) => [state, end])).toEqual([
      ['warning', null],
      ['stale', Date.parse('2026-11-27T21:04:20+01:00')],
      ['offline', null],
    ]);

    const night = await runReport([dir, '--from', '00:00', '--to=2026-11-28T01:00', '-o', output]);
    expect(night.code).toBe(0);
    const after = embeddedModel(await readFile(output, 'utf8'));
    expect(new Date(after.from).toISOString()).toBe('2026-11-27T23:00:00.000Z');
    expect(after.commands.map(({ command }) => command)).toEqual(['transport/stop']);
  });

  it('refuses bad arguments with the usage and exit code 2', async () => {
    const cases: [string[], string][] = [
      [[dir, '--from', '9pm'], '--from is a time such as 21:00'],
      [[dir, '--from', '25:00'], '--from is a time such as 21:00'],
      [[dir, '--to'], '--to needs a value'],
      [[dir, '--colour', 'red'], 'Unknown flag --colour'],
      [[], 'Give the show log'],
      [[dir, '--from', '21:05', '--to', '21:00'], '--from 21:05 is not before --to 21:00'],
      [[join(dir, 'nowhere')], `No show log at ${join(dir, 'nowhere')}`],
      [[dir, '--from', '03:00', '--to', '04:00'], 'Nothing in'],
    ];
    for (const [args, message] of cases) {
      const run = await runReport(args);
      expect(run.stderr, args.join(' ')).toContain(message);
      expect(run.stderr).toContain('Usage: stagelink-report');
      expect(run.code, args.join(' ')).toBe(2);
    }
    const help = await runReport(['--help']);
    expect([help.code, help.stdout.startsWith('Usage: stagelink-report')]).toEqual([0, true]);
  }, 120_000);

  it('loads nothing from the network when the page opens', async () => {
    const output = join(dir, 'offline.html');
    expect((await runReport([dir, '-o', output])).code).toBe(0);
    const html = await readFile(output, 'utf8');
    // uPlot is inlined, not referenced.
    expect(html).toContain('uPlot');
    expect(html.length).toBeGreaterThan(50_000);
    expect(html).not.toMatch(/<(script|img|iframe|source|audio|video)\b[^>]*\ssrc\s*=/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/url\(\s*['"]?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
  });

  it('keeps text from the log that looks like a closing script tag inside the embedded data', async () => {
    const hostile = await mkdtemp(join(tmpdir(), 'stagelink-report-escape-'));
    try {
      const machine = 'node</script><script>document.title="owned"</script>';
      const error = 'server said </SCRIPT><!-- and \u2028 more';
      await writeLog(hostile, [
        ['2026-11-27 21:00:00', { kind: 'fps', machine, value: 60 }],
        ['2026-11-27 21:00:01', { kind: 'command', command: 'transport/play', transport: 'main', ok: false, error }],
      ]);
      const output = join(hostile, 'report.html');
      expect((await runReport([hostile, '-o', output])).code).toBe(0);
      const html = await readFile(output, 'utf8');
      // Three scripts (the data, uPlot, the charts), each closed once: nothing in the data closed one early.
      expect(html.match(/<\/script/gi)).toHaveLength(3);
      const model = embeddedModel(html);
      expect(model.machines[0]?.name).toBe(machine);
      expect(model.commands[0]?.error).toBe(error);
      expect(html).toContain('<h3>node&lt;/script&gt;&lt;script&gt;document.title=&quot;owned&quot;&lt;/script&gt;</h3>');
    } finally {
      await rm(hostile, { recursive: true, force: true });
    }
  });
});
