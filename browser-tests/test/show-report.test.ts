/**
 * The show report (`stagelink-report`, the bridge's second bin) in Chromium: a log written by core's ShowRecorder
 * (three machines, a health warning, a fan that stopped, a stale FPS, the live link down, a director move, cues)
 * drawn as a page that opens from a file with every request refused: a chart per machine with its health band (and
 * its hardware band where it has one), no script or console error, and a screenshot (`screenshots/report.png`).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ShowRecorder } from '@stagelink/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { saveScreenshot } from './support/screenshots.js';

const REPORT_CLI = fileURLToPath(new URL('report-cli.mjs', import.meta.resolve('@stagelink/bridge')));
const MACHINES = ['actor-1', 'actor-2', 'understudy-1'];
/** 21:00 to 21:20 on the show day, at the venue's zone. */
const START = Date.parse('2026-11-27T21:00:00+01:00');
const MINUTES = 20;

/** Twenty minutes of a show: FPS at 4 a second with a drop on actor-2 in the finale, and what went wrong. */
async function recordShow(dir: string): Promise<void> {
  let now = new Date(START);
  const recorder = new ShowRecorder({ dir, source: 'browser-test 1.0', session: 'main stage', now: () => now });
  const atSecond = (second: number) => (now = new Date(START + second * 1000));
  atSecond(0);
  recorder.record({ kind: 'link', status: 'online' });
  for (const machine of MACHINES) recorder.record({ kind: 'health', machine, severity: 'ok' });
  recorder.record({ kind: 'hardware', machine: 'actor-2', status: 'online', severity: 'ok' });
  for (let quarter = 0; quarter < MINUTES * 60 * 4; quarter++) {
    const second = quarter / 4;
    atSecond(second);
    if (second === 180) recorder.record({ kind: 'health', machine: 'actor-1', severity: 'warning', states: [{ name: 'Temperature', severity: 'warning', detail: 'GPU 84 °C' }] });
    if (second === 300) recorder.record({ kind: 'health', machine: 'actor-1', severity: 'ok' });
    if (second === 480) recorder.record({ kind: 'hardware', machine: 'actor-2', status: 'online', severity: 'error', reasons: ['Fan 2 has stopped (0 RPM)'] });
    if (second === 540) recorder.record({ kind: 'hardware', machine: 'actor-2', status: 'online', severity: 'ok' });
    if (second === 420) recorder.record({ kind: 'stale', subject: 'fps', machine: 'understudy-1', reason: 'no value for 3 s' });
    if (second === 600) recorder.record({ kind: 'link', status: 'offline' });
    if (second === 640) recorder.record({ kind: 'link', status: 'online' });
    if (second === 700) recorder.record({ kind: 'director', machine: 'understudy-1', previous: 'actor-1' });
    if (second === 900) recorder.record({ kind: 'command', command: 'transport/play', via: 'mqtt', transport: 'main', id: 'finale', ok: true, ms: 14 });
    if (second === 960) recorder.record({ kind: 'command', command: 'transport/play', transport: 'side', ok: false, error: 'answered late', code: 'STAGELINK_ERR_LATE_LANDED', outcome: 'landed', ms: 2400 });
    const offline = second >= 600 && second < 640;
    for (const [index, machine] of MACHINES.entries()) {
      if (offline || (machine === 'understudy-1' && second >= 420 && second < 460)) continue;
      const finaleDrop = machine === 'actor-2' && second >= 1000 && second < 1002;
      recorder.record({ kind: 'fps', machine, value: finaleDrop ? 31 : 60 - ((quarter + index) % 5) * 0.1 });
    }
  }
  await recorder.close();
}

describe('the show report page', () => {
  let dir: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const requests: string[] = [];

  const previousZone = process.env.TZ;

  beforeAll(async () => {
    // The recorder writes the zone of the process it runs in: the venue's here, whatever the machine's.
    process.env.TZ = 'Europe/Paris';
    dir = await mkdtemp(join(tmpdir(), 'stagelink-report-page-'));
    await recordShow(dir);
    await promisify(execFile)(process.execPath, [REPORT_CLI, dir, '-o', join(dir, 'report.html')]);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    // Nothing but the page itself may load: it must open on a show machine with no network.
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (url === pathToFileURL(join(dir, 'report.html')).href) return route.continue();
      requests.push(url);
      return route.abort();
    });
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
  });

  afterAll(async () => {
    process.env.TZ = previousZone;
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('draws a chart with a health band for every machine, with no script error and no request', async () => {
    await page.waitForSelector(`body[data-charts-drawn="${MACHINES.length}"]`);
    const machines = page.locator('.machine');
    expect(await machines.evaluateAll((sections) => sections.map((section) => section.getAttribute('data-machine')))).toEqual(MACHINES);
    for (const machine of MACHINES) {
      const section = page.locator(`.machine[data-machine="${machine}"]`);
      expect(await section.locator('canvas').count(), machine).toBe(1);
      const canvasSize = await section.locator('canvas').evaluate((canvas: HTMLCanvasElement) => [canvas.width, canvas.height]);
      expect(canvasSize[0], machine).toBeGreaterThan(400);
      expect(await section.locator('.health-band .health-span').count(), machine).toBeGreaterThan(0);
    }
    // actor-1's band: ok, the warning from 21:03 to 21:05, ok again.
    expect(await page.locator('.machine[data-machine="actor-1"] .health-band .health-span').evaluateAll((spans) => spans.map((span) => span.getAttribute('title')))).toEqual([
      'ok',
      'warning: Temperature (warning): GPU 84 °C',
      'ok',
    ]);
    expect(problems).toEqual([]);
    expect(requests).toEqual([]);
  });

  it("draws a machine's hardware as a band under its health: the fan that stopped, from when to when", async () => {
    const band = page.locator('.machine[data-machine="actor-2"] .hardware-band .health-span');
    expect(await band.evaluateAll((spans) => spans.map((span) => span.getAttribute('title')))).toEqual(['ok', 'error: Fan 2 has stopped (0 RPM)', 'ok']);
    expect(await page.locator('#incidents tbody tr', { hasText: 'actor-2' }).textContent()).toContain('Fan 2 has stopped (0 RPM)');
    // Machines whose management controller the bridge did not read have no band.
    expect(await page.locator('.machine[data-machine="actor-1"] .hardware-band').count()).toBe(0);
  });

  it('lists the incidents and commands at the times the log wrote them', async () => {
    const incidents = await page.locator('#incidents tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].slice(0, 4).map((cell) => cell.textContent)));
    expect(incidents).toEqual([
      ['actor-1', 'warning', '21:03:00', '2 min 00 s'],
      ['understudy-1', 'stale', '21:07:00', '40 s'],
      ['actor-2', 'error', '21:08:00', '1 min 00 s'],
      ['all', 'offline', '21:10:00', '40 s'],
    ]);
    const commands = await page.locator('#commands tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].slice(0, 5).map((cell) => cell.textContent)));
    expect(commands).toEqual([
      ['21:15:00', 'transport/play', 'main', 'mqtt', 'ok'],
      ['21:16:00', 'transport/play', 'side', '', 'landed late'],
    ]);
    await saveScreenshot(page.locator('main'), 'report');
  });
});
