import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readShowLog, type ShowLogRecord } from '@stagelink/core';
import { simControl, type ControlRequest } from '@stagelink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../src/index.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/record';
const MAX_COMMAND_AGE_MS = 2000;
/** Longer than a cue's whole deadline: its answer comes after the bridge stopped waiting for it. */
const ANSWER_LATE_MS = MAX_COMMAND_AGE_MS + 1500;
/** Core's default timings report a quiet subscription stale, and live again, well within this. */
const STALE_BOUND_MS = 25_000;

/** When a fault was made and undone, to find its records between. */
interface Window {
  from: number;
  to: number;
}

describe.skipIf(MOSQUITTO_MISSING)('the bridge records the show through the faults venues report', () => {
  let venue: TestVenue;
  let bridge: Bridge;
  let watcher: Watcher;
  let dir: string;
  const windows: Record<string, Window> = {};
  let quiet: string;

  const on = (suffix: string) => (message: Received) => message.topic === `${PREFIX}/${suffix}`;
  const marked = (message: Received): boolean => (message.json as { stale?: boolean }).stale === true;
  const fresh = (suffix: string) => (message: Received) => on(suffix)(message) && !marked(message);
  const stale = (suffix: string, reason: string) => (message: Received) => on(suffix)(message) && marked(message) && (message.json as { reason?: string }).reason === reason;
  const control = (action: ControlRequest) => simControl(venue.session.sim.mediaServer.url, action);
  const machines = () => venue.session.sim.machines();
  const directorName = () => machines().find((machine) => machine.role === 'director')?.hostname as string;

  /** Runs a fault from start to recovery, keeping when it was, to the millisecond the log is written in. */
  async function during(name: string, fault: () => Promise<void>): Promise<void> {
    const from = Date.now();
    await fault();
    windows[name] = { from, to: Date.now() };
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stagelink-record-'));
    venue = await startVenue();
    watcher = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`]);
    bridge = await venue.startBridge(PREFIX, { record: dir, maxCommandAgeMs: MAX_COMMAND_AGE_MS });
    for (const { hostname } of machines()) await watcher.waitFor(fresh(`machines/${hostname}/fps`), 10_000, 0, `FPS of ${hostname}`);
    await watcher.waitFor(fresh('transports/main/state'), 5000, 0, 'the main transport');

    await during('quiet', async () => {
      quiet = machines().find((machine) => machine.role !== 'director')?.hostname as string;
      const pattern = `findRemoteMonitor("${quiet}:`;
      const since = watcher.messages.length;
      await control({ action: 'silentLive', pattern, on: true });
      try {
        await watcher.waitFor(stale(`machines/${quiet}/fps`, 'values stopped'), STALE_BOUND_MS, since, `FPS of ${quiet} marked stale`);
      } finally {
        await control({ action: 'silentLive', pattern, on: false });
      }
      await watcher.waitFor(fresh(`machines/${quiet}/fps`), STALE_BOUND_MS, watcher.messages.length, `FPS of ${quiet} live again`);
    });

    await during('dropped', async () => {
      const since = watcher.messages.length;
      await control({ action: 'refuseUpgrades', on: true });
      try {
        await control({ action: 'dropSockets' });
        await watcher.waitFor(stale(`machines/${directorName()}/fps`, 'no link'), 5000, since, 'FPS marked no link');
      } finally {
        await control({ action: 'refuseUpgrades', on: false });
      }
      await watcher.waitFor(fresh(`machines/${directorName()}/fps`), 20_000, watcher.messages.length, 'FPS live again');
    });

    await during('late', async () => {
      await control({ action: 'slowAnswer', path: '/api/session/transport/play', ms: ANSWER_LATE_MS });
      try {
        const id = `late-${Date.now()}`;
        const since = watcher.messages.length;
        await watcher.client.publishAsync(`${PREFIX}/cmd/transport/play`, JSON.stringify({ transport: 'main', id, sentAt: Date.now() }), { qos: 1 });
        await watcher.waitFor((message) => on('result')(message) && (message.json as { id?: string }).id === id, 10_000, since, 'the late cue\'s result');
      } finally {
        await control({ action: 'slowAnswer', path: '/api/session/transport/play', ms: 0 });
      }
    });

    await during('takeover', async () => {
      const to = machines().find((machine) => machine.role !== 'director')?.hostname as string;
      const since = watcher.messages.length;
      await control({ action: 'moveDirector', to });
      await watcher.waitFor((message) => on('director')(message) && (message.json as { hostname?: string }).hostname === to, 10_000, since, `director ${to}`);
    });
    await bridge.close();
  }, 150_000);

  afterAll(async () => {
    await bridge?.close();
    await watcher?.close();
    await venue?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function records(): Promise<ShowLogRecord[]> {
    const all: ShowLogRecord[] = [];
    for await (const record of readShowLog(dir)) all.push(record);
    return all;
  }
  const within = (record: ShowLogRecord, name: string): boolean => {
    const at = Date.parse(record.t);
    const window = windows[name] as Window;
    return at >= window.from && at <= window.to;
  };

  it('starts the log with who wrote it, for which session', async () => {
    const [first] = await records();
    expect(first).toMatchObject({ kind: 'log', v: 1, source: expect.stringMatching(/^stagelink-bridge \d+\.\d+\.\d+/) as string, session: PREFIX });
  });

  it('logs a quiet subscription as a stale span of that machine, ended by its next value', async () => {
    const all = await records();
    const mark = all.findIndex((record) => record.kind === 'stale' && record.subject === 'fps' && record.machine === quiet && record.reason === 'values stopped');
    expect(mark).toBeGreaterThan(-1);
    expect(within(all[mark] as ShowLogRecord, 'quiet')).toBe(true);
    const next = all.slice(mark + 1).find((record) => record.kind === 'fps' && record.machine === quiet);
    expect(next && within(next, 'quiet')).toBe(true);
  });

  it('logs a dropped stream as the link going offline and coming back, every live value marked', async () => {
    const all = (await records()).filter((record) => within(record, 'dropped'));
    const links = all.filter((record) => record.kind === 'link').map((record) => (record as { status: string }).status);
    expect(links[0]).not.toBe('online');
    expect(links.at(-1)).toBe('online');
    const marked = new Set(all.filter((record) => record.kind === 'stale' && record.reason === 'no link').map((record) => `${(record as { subject: string }).subject} ${(record as { machine?: string }).machine ?? ''}`));
    for (const { hostname } of machines()) expect(marked).toContain(`fps ${hostname}`);
  });

  it('logs a late cue with its outcome and how long it took', async () => {
    const late = (await records()).find((record) => record.kind === 'command' && record.command === 'transport/play' && within(record, 'late'));
    expect(late).toMatchObject({ via: 'mqtt', transport: 'main', ok: false, code: expect.stringMatching(/^STAGELINK_ERR_LATE_/) as string, outcome: expect.stringMatching(/^(landed|unknown)$/) as string });
    expect((late as { ms: number }).ms).toBeGreaterThanOrEqual(MAX_COMMAND_AGE_MS / 2);
  });

  it('logs a takeover as the director moving, from which machine to which', async () => {
    const move = (await records()).find((record) => record.kind === 'director' && within(record, 'takeover'));
    expect(move).toMatchObject({ machine: directorName(), previous: expect.any(String) as string });
    expect((move as { previous: string }).previous).not.toBe(directorName());
  });
});
