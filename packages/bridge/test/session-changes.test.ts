import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { readShowLog, type ShowLogRecord } from '@stagelink/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haBaseId, haSlug } from '../src/ha-discovery.js';
import type { Bridge } from '../src/index.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { scrape, scrapeUntil, type Sample } from './support/metrics.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/changes';
const POLL_MS = 1000;
/**
 * One poll period, plus what a busy test machine adds to a round (reads, Home Assistant's 200 ms batching): never a
 * bound under 2 s, so a loaded machine slows the test down rather than failing it.
 */
const WITHIN_ONE_POLL_MS = POLL_MS + 1500;
const BASE = haBaseId(PREFIX);
const SESSION_DEVICE = `homeassistant/device/${BASE}/config`;

interface DeviceConfig {
  cmps: Record<string, { p: string; [key: string]: unknown }>;
}

/** What the broker holds retained under these topics now, as a consumer that joins later reads it. */
async function retainedUnder(url: string, topics: string[]): Promise<Received[]> {
  const late = await Watcher.connect(url, topics);
  await delay(300);
  await late.close();
  return late.messages.filter((message) => message.retain);
}

const seriesOf = (samples: Sample[], label: string, value: string) => samples.filter((sample) => sample.labels[label] === value).map((sample) => `${sample.name}${JSON.stringify(sample.labels)}`);

describe.skipIf(MOSQUITTO_MISSING)('machines and transports that go while the bridge runs, on a real Mosquitto', () => {
  let venue: TestVenue;
  let bridge: Bridge;
  let watcher: Watcher;
  let dir: string;
  let metricsUrl: string;
  /** The understudy taken out of the session (after it leaves, the simulator no longer lists it as one). */
  let understudy: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stagelink-changes-'));
    venue = await startVenue();
    watcher = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`, 'homeassistant/#']);
    bridge = await venue.startBridge(PREFIX, { haDiscovery: true, metrics: '127.0.0.1:0', record: dir, pollIntervalMs: POLL_MS });
    metricsUrl = bridge.metricsUrl as string;
  });

  afterAll(async () => {
    await bridge?.close();
    await watcher?.close();
    await venue?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const json = (message: Received) => message.json as { stale?: boolean; reason?: string };
  const fresh = (suffix: string) => (message: Received) => message.topic === `${PREFIX}/${suffix}` && typeof message.json === 'object' && json(message).stale !== true;
  const cleared = (topic: string) => (message: Received) => message.topic === topic && message.json === '';

  it('a renamed transport leaves every output within one poll period, and the new name is published', async () => {
    const [before, after] = ['side screens', 'LED wall'];
    for (const part of ['state', 'clock']) await watcher.waitFor(fresh(`transports/${before}/${part}`), 10_000, 0, `${part} of ${before}`);
    await scrapeUntil(metricsUrl, (samples) => seriesOf(samples, 'transport', before).length > 0, 5000, `the series of ${before}`);
    const oldKeys = (config: DeviceConfig) => Object.keys(config.cmps).filter((key) => key.includes(`-transport-${haSlug(before)}-`));
    const published = await watcher.waitFor((message) => message.topic === SESSION_DEVICE && oldKeys(message.json as DeviceConfig).length > 0, 5000, 0, `${before} in Home Assistant`);
    const components = oldKeys(published.json as DeviceConfig);

    const since = watcher.messages.length;
    await venue.session.control({ action: 'renameTransport', transport: before, name: after });
    const renamedAt = Date.now();
    const clears = [];
    for (const part of ['state', 'clock']) clears.push(await watcher.waitFor(cleared(`${PREFIX}/transports/${before}/${part}`), 10_000, since, `${part} of ${before} cleared`));
    const newState = await watcher.waitFor(fresh(`transports/${after}/state`), 10_000, since, `state of ${after}`);
    // Both in the round that saw the rename: the old name's clear goes with the new name's first value.
    for (const clear of clears) expect(Math.abs(clear.at - newState.at)).toBeLessThan(WITHIN_ONE_POLL_MS);
    expect(Math.max(...clears.map((clear) => clear.at)) - renamedAt).toBeLessThan(POLL_MS + WITHIN_ONE_POLL_MS);

    // Home Assistant: each component that went is sent as {"p": platform}, then a config without them.
    const stubs = await watcher.waitFor((message) => message.topic === SESSION_DEVICE && components.every((key) => Object.keys((message.json as DeviceConfig).cmps[key] ?? {}).join() === 'p'), 5000, since, 'removal stubs');
    expect(stubs.at - newState.at).toBeLessThan(WITHIN_ONE_POLL_MS);
    const stubbed = (stubs.json as DeviceConfig).cmps;
    expect(components.map((key) => stubbed[key]?.p).sort()).toEqual(components.map((key) => (published.json as DeviceConfig).cmps[key]?.p).sort());
    const index = watcher.messages.indexOf(stubs);
    const next = await watcher.waitFor((message) => message.topic === SESSION_DEVICE, 2000, index + 1, 'the config after the stubs');
    expect(oldKeys(next.json as DeviceConfig)).toEqual([]);

    // Prometheus: the old name's series are gone, not held.
    await scrapeUntil(metricsUrl, (samples) => seriesOf(samples, 'transport', before).length === 0 && seriesOf(samples, 'transport', after).length > 0, WITHIN_ONE_POLL_MS, `no series of ${before}`);

    // The summary goes out at most once a period: the one without the old name may follow the removal by a period.
    await watcher.waitFor((message) => message.topic === `${PREFIX}/summary` && !Object.keys((message.json as { transports?: object }).transports ?? {}).includes(before), WITHIN_ONE_POLL_MS, since, `the summary without ${before}`);
    // What a consumer joining now reads: nothing of the old name anywhere, the new name there.
    const retained = await retainedUnder(venue.broker.url, [`${PREFIX}/#`, SESSION_DEVICE]);
    expect(retained.filter((message) => message.topic.startsWith(`${PREFIX}/transports/${before}/`)).map((message) => message.topic)).toEqual([]);
    expect(retained.some((message) => message.topic === `${PREFIX}/transports/${after}/state`)).toBe(true);
    const device = retained.find((message) => message.topic === SESSION_DEVICE)?.json as DeviceConfig;
    expect(oldKeys(device)).toEqual([]);
    expect(Object.keys(device.cmps).some((key) => key.includes(`-transport-${haSlug(after)}-`))).toBe(true);
    const summary = retained.find((message) => message.topic === `${PREFIX}/summary`)?.json as { transports?: Record<string, unknown> };
    expect(Object.keys(summary.transports ?? {})).not.toContain(before);

    // Nothing of it comes again.
    const settled = watcher.messages.length;
    await delay(3 * POLL_MS);
    expect(watcher.messages.slice(settled).filter((message) => message.topic.startsWith(`${PREFIX}/transports/${before}/`))).toEqual([]);
  });

  it('a machine taken out of the session leaves every output within one poll period', async () => {
    understudy = venue.session.sim.machines().find((machine) => machine.role === 'understudy')?.hostname as string;
    const actor = venue.session.sim.machines().find((machine) => machine.role === 'actor')?.hostname as string;
    const device = `homeassistant/device/${BASE}-machine-${haSlug(understudy)}/config`;
    for (const part of ['fps', 'health', 'takeover']) await watcher.waitFor(fresh(`machines/${understudy}/${part}`), 10_000, 0, `${part} of ${understudy}`);
    const published = await watcher.waitFor((message) => message.topic === device && typeof message.json === 'object', 5000, 0, `${understudy} in Home Assistant`);
    await scrapeUntil(metricsUrl, (samples) => seriesOf(samples, 'machine', understudy).length > 0, 5000, `the series of ${understudy}`);

    const since = watcher.messages.length;
    await venue.session.control({ action: 'leaveSession', hostname: understudy });
    const leftAt = Date.now();
    const clears = [];
    for (const part of ['fps', 'health', 'takeover']) clears.push(await watcher.waitFor(cleared(`${PREFIX}/machines/${understudy}/${part}`), 10_000, since, `${part} of ${understudy} cleared`));
    expect(Math.max(...clears.map((clear) => clear.at)) - leftAt).toBeLessThan(POLL_MS + WITHIN_ONE_POLL_MS);

    // Home Assistant: every component of its device as a stub, then the device's config cleared.
    const stubs = await watcher.waitFor((message) => message.topic === device && typeof message.json === 'object', 5000, since, 'removal stubs');
    const before = (published.json as DeviceConfig).cmps;
    expect((stubs.json as DeviceConfig).cmps).toEqual(Object.fromEntries(Object.entries(before).map(([key, { p }]) => [key, { p }])));
    const gone = await watcher.waitFor(cleared(device), 2000, watcher.messages.indexOf(stubs) + 1, 'the device config cleared');
    expect(gone.at - Math.max(...clears.map((clear) => clear.at))).toBeLessThan(WITHIN_ONE_POLL_MS);

    await scrapeUntil(metricsUrl, (samples) => seriesOf(samples, 'machine', understudy).length === 0 && seriesOf(samples, 'machine', actor).length > 0, WITHIN_ONE_POLL_MS, `no series of ${understudy}`);
    // The summary goes out at most once a period: the one without the machine may follow the removal by a period.
    const summaryWithout = await watcher.waitFor(
      (message) => message.topic === `${PREFIX}/summary` && !Object.keys((message.json as { machines?: Record<string, unknown> }).machines ?? {}).includes(understudy),
      WITHIN_ONE_POLL_MS,
      since,
      `the summary without ${understudy}`,
    );
    expect(summaryWithout.at - leftAt).toBeLessThan(POLL_MS + WITHIN_ONE_POLL_MS);

    const retained = await retainedUnder(venue.broker.url, [`${PREFIX}/#`, device]);
    expect(retained.filter((message) => message.topic.startsWith(`${PREFIX}/machines/${understudy}/`) || message.topic === device).map((message) => message.topic)).toEqual([]);
    const summary = retained.find((message) => message.topic === `${PREFIX}/summary`)?.json as { machines: Record<string, unknown> };
    expect(Object.keys(summary.machines)).not.toContain(understudy);
    expect(Object.keys(summary.machines)).toContain(actor);

    // The others stay live; a few more rounds bring nothing for the machine that left.
    const settled = watcher.messages.length;
    await watcher.waitFor(fresh(`machines/${actor}/fps`), 10_000, settled, `FPS of ${actor}`);
    await delay(3 * POLL_MS);
    expect(watcher.messages.slice(settled).filter((message) => message.topic.startsWith(`${PREFIX}/machines/${understudy}/`) || message.topic === device)).toEqual([]);
    expect(seriesOf(await scrape(metricsUrl), 'machine', understudy)).toEqual([]);
  });

  it('records in the show log that they left', async () => {
    await bridge.close();
    const records: ShowLogRecord[] = [];
    for await (const record of readShowLog(dir)) records.push(record);
    const stale = records.filter((record) => record.kind === 'stale');
    expect(stale).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ subject: 'transport', transport: 'side screens', reason: 'not in the project' }),
        expect.objectContaining({ subject: 'clock', transport: 'side screens', reason: 'not in the project' }),
        expect.objectContaining({ subject: 'fps', machine: understudy, reason: 'left the session' }),
        expect.objectContaining({ subject: 'health', machine: understudy, reason: 'left the session' }),
      ]),
    );
  });
});

describe.skipIf(MOSQUITTO_MISSING)('reads that fail remove nothing, on a real Mosquitto', () => {
  const prefix = 'test/changes-failed';
  const transportsPath = '/api/session/transport/transports';
  let venue: TestVenue;
  let watcher: Watcher;
  const bridges: Bridge[] = [];

  beforeAll(async () => {
    venue = await startVenue();
    watcher = await Watcher.connect(venue.broker.url, [`${prefix}/#`, 'homeassistant/#']);
  });

  afterAll(async () => {
    for (const bridge of bridges) await bridge.close();
    await venue?.session.control({ action: 'stallBody', path: transportsPath, on: false }).catch(() => undefined);
    await watcher?.close();
    await venue?.close();
  });

  const start = async () => {
    const bridge = await venue.startBridge(prefix, { haDiscovery: true, pollIntervalMs: POLL_MS });
    bridges.push(bridge);
    return bridge;
  };
  const isClear = (message: Received) => message.json === '' && (message.topic.startsWith(`${prefix}/transports/`) || message.topic.startsWith(`${prefix}/machines/`) || message.topic.startsWith('homeassistant/'));
  const stubbed = (message: Received) => message.topic.startsWith('homeassistant/') && typeof message.json === 'object' && Object.values((message.json as DeviceConfig).cmps ?? {}).some((component) => Object.keys(component).join() === 'p');

  it('a failed transports read, and a new run whose first reads fail, clear no topic and remove no entity', async () => {
    const first = await start();
    await watcher.waitFor((message) => message.topic === `${prefix}/transports/main/state`, 10_000, 0, 'the main transport');
    await watcher.waitFor((message) => message.topic === `homeassistant/device/${haBaseId(prefix)}/config` && JSON.stringify(message.json).includes('-transport-main-'), 5000, 0, 'main in Home Assistant');

    const since = watcher.messages.length;
    await venue.session.control({ action: 'stallBody', path: transportsPath, on: true });
    await watcher.waitFor((message) => message.topic === `${prefix}/transports/main/state` && (message.json as { stale?: boolean }).stale === true, 10_000, since, 'main marked stale');
    await first.close();

    // A new run of the bridge whose transports read fails from its first round.
    await start();
    await delay(4 * POLL_MS + 1500);
    expect(watcher.messages.slice(since).filter((message) => isClear(message) || stubbed(message)).map((message) => message.topic)).toEqual([]);
    const retained = await retainedUnder(venue.broker.url, [`${prefix}/transports/#`, `homeassistant/device/${haBaseId(prefix)}/config`]);
    expect(retained.some((message) => message.topic === `${prefix}/transports/main/state`)).toBe(true);
    expect(JSON.stringify(retained.find((message) => message.topic.startsWith('homeassistant/'))?.json)).toContain('-transport-main-');

    const recovered = watcher.messages.length;
    await venue.session.control({ action: 'stallBody', path: transportsPath, on: false });
    await watcher.waitFor((message) => message.topic === `${prefix}/transports/main/state` && (message.json as { stale?: boolean }).stale !== true, 10_000, recovered, 'main live again');
    await delay(2 * POLL_MS);
    expect(watcher.messages.slice(since).filter((message) => isClear(message) || stubbed(message)).map((message) => message.topic)).toEqual([]);
  }, 60_000);
});
