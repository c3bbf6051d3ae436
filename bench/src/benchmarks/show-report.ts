import { execFile, fork } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { localIso, readShowLog } from '@stagelink/core';
import { chromium, type Browser } from 'playwright-core';
import { compareRounds } from '../harness/compare.js';
import { millis } from '../harness/format.js';
import { atMost, notRun, type Benchmark, type ResultRow } from '../harness/report.js';
import { interleavedRounds } from '../harness/timing.js';

const MACHINES = 20;
const HOURS = 8;
const VALUES_PER_SECOND = 4;
const ROUNDS = { build: 2, load: 3 };
const LOAD_TARGET_MS = 3000;
/** 18:00 local time on the show day: the 8-hour show runs past midnight into the same show day's file. */
const SHOW_START = new Date(2026, 10, 27, 18, 0, 0);

const REPORT_CLI = fileURLToPath(new URL('report-cli.mjs', import.meta.resolve('@stagelink/bridge')));
const TSX = import.meta.resolve('tsx');
const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
/** Set in the process this file forks to read the log with readShowLog alone. */
const READ_ENV = 'STAGELINK_BENCH_READ_SHOW_LOG';

/**
 * The show report on a long show: an 8-hour, 20-machine log at 4 FPS values a second per machine (the most the
 * bridge records), with health changes, stale and offline spans, director moves and cues; its size per machine-hour,
 * the time `stagelink-report` takes to build the page, and the time Chromium takes to open it to the charts drawn.
 */
export const showReport: Benchmark = {
  id: 'show-report',
  name: 'show report',
  subject: `stagelink-report on an ${HOURS}-hour show log, ${MACHINES} machines, ${VALUES_PER_SECOND} FPS values a second each; the page opened in Chromium`,
  baseline: 'the same log read with readShowLog alone (nothing built); the same page with its scripts taken out (no chart drawn)',
  async run(log) {
    const dir = await mkdtemp(join(tmpdir(), 'stagelink-bench-report-'));
    try {
      const logPath = join(dir, 'show-2026-11-27.ndjson');
      log(`writing the log: ${HOURS} h, ${MACHINES} machines, ${VALUES_PER_SECOND} values/s`);
      const written = await writeShowLog(logPath);
      const bytes = (await stat(logPath)).size;
      log(`${written.lines.toLocaleString('en-US')} lines, ${(bytes / 1024 ** 2).toFixed(0)} MiB; building the report (${ROUNDS.build} rounds against reading alone)`);
      const page = join(dir, 'report.html');
      const build = await interleavedRounds(ROUNDS.build, {
        report: () => timed(() => promisify(execFile)(process.execPath, [REPORT_CLI, logPath, '-o', page])),
        read: () => timed(() => readInChild(logPath)),
      });
      const pageBytes = (await stat(page)).size;
      const rows: ResultRow[] = [sizeRow(bytes, written.lines), buildRow(build.report, build.read, pageBytes)];
      if (!existsSync(CHROMIUM_PATH)) {
        rows.push(notRun('page load to charts drawn', `<= ${LOAD_TARGET_MS} ms`, `no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium`));
        return { rows, details: { bytes, lines: written.lines, buildMs: build.report, readMs: build.read, pageBytes } };
      }
      const plain = join(dir, 'plain.html');
      await writeFile(plain, withoutScripts(await readFile(page, 'utf8')));
      log(`opening the page in Chromium (${ROUNDS.load} rounds against the same page without its scripts)`);
      const load = await measureLoads(page, plain);
      rows.push(loadRow(load.report, load.plain, pageBytes));
      return { rows, details: { bytes, lines: written.lines, bytesPerMachineHour: bytes / (MACHINES * HOURS), buildMs: build.report, readMs: build.read, pageBytes, loadMs: load.report, plainLoadMs: load.plain } };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * The log as the bridge writes it (the lines ShowRecorder writes: `t` local with offset, then the entry): every
 * machine's FPS each quarter second, a health change on a machine every 10 minutes (warning for a minute), a stale
 * FPS every half hour, the live link down for 20 s every 2 hours, a director move at 3 hours, a cue every minute.
 */
async function writeShowLog(path: string): Promise<{ lines: number }> {
  const out = createWriteStream(path);
  let lines = 0;
  let chunk: string[] = [];
  const write = async (t: string, entry: Record<string, unknown>): Promise<void> => {
    chunk.push(`{"t":"${t}",${JSON.stringify(entry).slice(1)}\n`);
    lines++;
    if (chunk.length >= 10_000) {
      if (!out.write(chunk.join(''))) await once(out, 'drain');
      chunk = [];
    }
  };
  const machines = Array.from({ length: MACHINES }, (_, index) => `actor-${String(index + 1).padStart(2, '0')}`);
  const start = SHOW_START.getTime();
  await write(localIso(SHOW_START), { kind: 'log', v: 1, source: 'bench 1.0', session: 'venue', day: '2026-11-27' });
  await write(localIso(SHOW_START), { kind: 'link', status: 'online' });
  for (const machine of machines) await write(localIso(SHOW_START), { kind: 'health', machine, severity: 'ok' });
  let offline = false;
  for (let quarter = 0; quarter < HOURS * 3600 * VALUES_PER_SECOND; quarter++) {
    const second = quarter / VALUES_PER_SECOND;
    const t = localIso(new Date(start + second * 1000));
    if (Number.isInteger(second)) {
      const machine = machines[Math.floor(second / 600) % MACHINES] as string;
      if (second % 600 === 300) await write(t, { kind: 'health', machine, severity: 'warning', states: [{ name: 'Temperature', severity: 'warning', detail: 'GPU 84 °C' }] });
      if (second % 600 === 360) await write(t, { kind: 'health', machine, severity: 'ok' });
      if (second % 1800 === 900) await write(t, { kind: 'stale', subject: 'fps', machine, reason: 'no value for 3 s' });
      if (second % 7200 === 3600) {
        offline = true;
        await write(t, { kind: 'link', status: 'offline' });
      }
      if (second % 7200 === 3620) {
        offline = false;
        await write(t, { kind: 'link', status: 'online' });
      }
      if (second === 3 * 3600) await write(t, { kind: 'director', machine: machines[1], previous: machines[0] });
      if (second % 60 === 30) await write(t, { kind: 'command', command: 'transport/play', via: 'mqtt', transport: 'main', id: `cue-${second}`, ok: true, ms: 12 });
    }
    if (offline) continue;
    for (const [index, machine] of machines.entries()) {
      const drop = index === 7 && second >= HOURS * 3600 - 600 && second < HOURS * 3600 - 599;
      await write(t, { kind: 'fps', machine, value: drop ? 31 : Math.round((60 - ((quarter * 7 + index * 3) % 11) * 0.05) * 100) / 100, average: 59.8 });
    }
  }
  out.end(chunk.join(''));
  await once(out, 'finish');
  return { lines };
}

/** The baseline of the build: the same log read record by record with readShowLog, in a process of its own. */
async function readInChild(path: string): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', TSX], env: { ...process.env, [READ_ENV]: path }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`reading the log with readShowLog exited with ${String(code)}`);
}

/** The page's bytes without a script to run: what loading and laying it out costs with no chart drawn. */
function withoutScripts(html: string): string {
  return html.replace(/<script>[\s\S]*?<\/script>/g, (script) => `<script type="text/plain">${script.slice('<script>'.length)}`);
}

async function measureLoads(report: string, plain: string): Promise<{ report: number[]; plain: number[] }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
  try {
    return await interleavedRounds(ROUNDS.load, {
      report: () => openPage(browser, report, true),
      plain: () => openPage(browser, plain, false),
    });
  } finally {
    await browser.close();
  }
}

/** From asking for the page to its charts drawn (and painted), or to its load event for the page without charts. */
async function openPage(browser: Browser, path: string, charts: boolean): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const started = performance.now();
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load', timeout: 60_000 });
    if (charts) {
      await page.waitForSelector(`body[data-charts-drawn="${MACHINES}"]`, { timeout: 60_000 });
      // Two frames: the charts' canvases are painted, not only drawn into.
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    }
    const elapsed = performance.now() - started;
    if (errors.length > 0) throw new Error(`the report page had script errors: ${errors.join('; ')}`);
    return elapsed;
  } finally {
    await context.close();
  }
}

function sizeRow(bytes: number, lines: number): ResultRow {
  const perMachineHour = bytes / (MACHINES * HOURS);
  return {
    case: 'log bytes per machine-hour',
    subject: `${(perMachineHour / 1024 ** 2).toFixed(2)} MiB`,
    baseline: '-',
    target: 'reported',
    verdict: 'reported',
    note: `${(bytes / 1024 ** 2).toFixed(0)} MiB for the whole show, ${lines.toLocaleString('en-US')} lines, ${Math.round(bytes / lines)} bytes a line; FPS every quarter second on every machine (the most the bridge writes)`,
  };
}

function buildRow(report: number[], read: number[], pageBytes: number): ResultRow {
  const compared = compareRounds(report, read);
  return {
    case: 'report build (stagelink-report, whole log)',
    subject: millis(compared.subject),
    baseline: millis(compared.baseline),
    ratioLabel: 'report / readShowLog alone',
    ratio: compared.ratio,
    ratioRange: compared.ratioRange,
    target: 'reported',
    verdict: 'reported',
    note: `both in a process of their own; the page is ${(pageBytes / 1024 ** 2).toFixed(1)} MiB`,
  };
}

function loadRow(report: number[], plain: number[], pageBytes: number): ResultRow {
  const compared = compareRounds(report, plain);
  return {
    case: 'page load to charts drawn (Chromium)',
    subject: millis(compared.subject),
    baseline: millis(compared.baseline),
    ratioLabel: 'charts / page without scripts',
    ratio: compared.ratio,
    ratioRange: compared.ratioRange,
    target: `<= ${LOAD_TARGET_MS} ms`,
    verdict: atMost(compared.subject, LOAD_TARGET_MS),
    note: `${MACHINES} charts of at most 2,000 points each; a new browser context per load; page ${(pageBytes / 1024 ** 2).toFixed(1)} MiB`,
  };
}

async function readAlone(path: string): Promise<void> {
  let records = 0;
  for await (const record of readShowLog(path)) if (record.t) records++;
  if (records === 0) process.exitCode = 1;
}

if (process.env[READ_ENV]) await readAlone(process.env[READ_ENV]);
