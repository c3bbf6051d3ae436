/**
 * A show recorded by a real bridge (`--record`) against the simulator through the faults venues report (a value
 * that goes quiet, the live stream dropped, a cue answered late, a takeover), drawn by `stagelink-report` and
 * opened in Chromium: each fault is in the page's data at the time it was made, and on the screenshot
 * (`screenshots/report-faults.png`).
 */
import { execFile, execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startBridge, type Bridge } from '@stagelink/bridge';
import { readShowLog, type ShowLogRecord } from '@stagelink/core';
import { simControl, startSimulator, type ControlRequest, type Simulator } from '@stagelink/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { saveScreenshot } from './support/screenshots.js';
import { until } from './support/until.js';

const REPORT_CLI = fileURLToPath(new URL('report-cli.mjs', import.meta.resolve('@stagelink/bridge')));
const PREFIX = 'venue/faults';
const MAX_COMMAND_AGE_MS = 2000;
/** Longer than a cue's whole deadline: its answer comes after the bridge stopped waiting for it. */
const ANSWER_LATE_MS = MAX_COMMAND_AGE_MS + 1500;
/** A cue comes by OSC (Debian's oscsend), so the bridge needs no broker here: it records all the same. */
const OSCSEND_MISSING = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v oscsend'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'oscsend is not installed: `apt-get install -y --no-install-recommends liblo-tools` (.ci/run installs it)';
  }
})();
if (OSCSEND_MISSING) console.warn(`skipped: ${OSCSEND_MISSING}`);

interface Window {
  from: number;
  to: number;
}

interface ReportData {
  incidents: { machine: string; state: string; start: number; detail: string }[];
  commands: { at: number; command: string; outcome: string }[];
  markers: { at: number; kind: string; label: string }[];
  machines: { name: string }[];
}

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  const { port } = socket.address();
  socket.close();
  return port;
}

describe.skipIf(OSCSEND_MISSING)('the report of a show recorded through faults', () => {
  let sim: Simulator;
  let bridge: Bridge;
  let dir: string;
  let browser: Browser;
  let page: Page;
  let quiet: string;
  let newDirector: string;
  const windows: Record<string, Window> = {};
  const problems: string[] = [];

  const control = (action: ControlRequest) => simControl(sim.machines().find((machine) => machine.running)?.url ?? sim.mediaServer.url, action);
  const directorName = () => sim.machines().find((machine) => machine.role === 'director')?.hostname as string;
  async function records(): Promise<ShowLogRecord[]> {
    const all: ShowLogRecord[] = [];
    for await (const record of readShowLog(dir)) all.push(record);
    return all;
  }
  /** Waits for a record written at or after `since` (ms since the epoch). */
  const logged = (what: string, since: number, match: (record: ShowLogRecord) => boolean) =>
    until(what, async () => (await records()).find((record) => Date.parse(record.t) >= since && match(record)), 30_000);
  async function during(name: string, fault: (from: number) => Promise<void>): Promise<void> {
    const from = Date.now();
    await fault(from);
    windows[name] = { from, to: Date.now() };
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stagelink-report-faults-'));
    sim = await startSimulator({ scenario: 'session' });
    const hosts = Object.fromEntries(sim.machines().map((machine) => [machine.hostname, new URL(machine.url).host]));
    const oscPort = await freeUdpPort();
    bridge = await startBridge({
      server: sim.mediaServer.url,
      // No broker: the show log does not need one.
      mqtt: 'mqtt://127.0.0.1:1',
      prefix: PREFIX,
      followDirector: true,
      hosts,
      pollIntervalMs: 500,
      maxCommandAgeMs: MAX_COMMAND_AGE_MS,
      record: dir,
      oscListen: `127.0.0.1:${oscPort}`,
      oscAllow: ['127.0.0.1'],
    });
    const started = Date.now() - 1000;
    for (const { hostname } of sim.machines()) await logged(`FPS of ${hostname}`, started, (record) => record.kind === 'fps' && record.machine === hostname);

    await during('quiet', async (from) => {
      quiet = sim.machines().find((machine) => machine.role !== 'director')?.hostname as string;
      const pattern = `findRemoteMonitor("${quiet}:`;
      await control({ action: 'silentLive', pattern, on: true });
      try {
        await logged(`FPS of ${quiet} stale`, from, (record) => record.kind === 'stale' && record.subject === 'fps' && record.machine === quiet);
      } finally {
        await control({ action: 'silentLive', pattern, on: false });
      }
      const stoppedAt = Date.now();
      await logged(`FPS of ${quiet} again`, stoppedAt, (record) => record.kind === 'fps' && record.machine === quiet);
    });

    await during('dropped', async (from) => {
      await control({ action: 'refuseUpgrades', on: true });
      try {
        await control({ action: 'dropSockets' });
        await logged('the link offline', from, (record) => record.kind === 'link' && record.status !== 'online');
      } finally {
        await control({ action: 'refuseUpgrades', on: false });
      }
      await logged('the link back', from, (record) => record.kind === 'link' && record.status === 'online');
    });

    await during('late', async (from) => {
      await control({ action: 'slowAnswer', path: '/api/session/transport/play', ms: ANSWER_LATE_MS });
      try {
        execFileSync('oscsend', ['127.0.0.1', String(oscPort), `/stagelink/faults/transport/main/play`, 's', '{"id":"late-go"}'], { stdio: 'ignore', timeout: 5000 });
        await logged('the late cue', from, (record) => record.kind === 'command' && record.id === 'late-go');
      } finally {
        await control({ action: 'slowAnswer', path: '/api/session/transport/play', ms: 0 });
      }
    });

    await during('takeover', async (from) => {
      newDirector = sim.machines().find((machine) => machine.role !== 'director')?.hostname as string;
      await control({ action: 'moveDirector', to: newDirector });
      await logged(`director ${newDirector}`, from, (record) => record.kind === 'director' && record.machine === newDirector);
    });
    await bridge.close();

    await promisify(execFile)(process.execPath, [REPORT_CLI, dir, '-o', join(dir, 'report.html')]);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    await page.waitForSelector(`body[data-charts-drawn="${sim.machines().length}"]`);
  }, 180_000);

  afterAll(async () => {
    await bridge?.close();
    await browser?.close();
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const data = () => page.evaluate(() => JSON.parse(document.getElementById('stagelink-report-data')?.textContent ?? '{}') as unknown) as Promise<ReportData>;
  const within = (at: number, name: string) => at >= (windows[name] as Window).from && at <= (windows[name] as Window).to;

  it('shows each fault at the time it was made', async () => {
    const report = await data();
    expect(report.machines.map((machine) => machine.name).sort()).toEqual(sim.machines().map((machine) => machine.hostname).sort());
    const quietSpan = report.incidents.find((incident) => incident.machine === quiet && incident.state === 'stale' && within(incident.start, 'quiet'));
    expect(quietSpan, 'the quiet FPS as a stale incident').toBeDefined();
    expect(report.incidents.some((incident) => incident.state === 'offline' && within(incident.start, 'dropped')), 'the dropped stream as an offline incident').toBe(true);
    const late = report.commands.find((command) => command.command === 'transport/play' && within(command.at, 'late'));
    expect(late?.outcome).toMatch(/^(landed late|outcome unknown)$/);
    const move = report.markers.find((marker) => marker.kind === 'director' && within(marker.at, 'takeover'));
    expect(move?.label).toContain(newDirector);
    expect(problems).toEqual([]);
    expect(directorName()).toBe(newDirector);
    await saveScreenshot(page.locator('main'), 'report-faults');
  });
});
