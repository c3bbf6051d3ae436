import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { severityRank } from '@stagelink/core';
import { simControl, type ControlRequest } from '@stagelink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandOutcome, HEALTH_SEVERITIES, metricsListenOf } from '../src/metrics.js';
import { startBridge, type Bridge, type BridgeLog } from '../src/index.js';
import type { LogFields } from '../src/log.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { metricNamesOf, sampleValue, scrape, scrapeUntil, type Sample } from './support/metrics.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/metrics';
const DASHBOARD = fileURLToPath(new URL('../examples/grafana-dashboard.json', import.meta.url));

describe('the metrics flag and results, without a session', () => {
  it('reads --metrics as [addr:]port, loopback when no address is given', () => {
    expect(metricsListenOf('9464')).toEqual({ address: '127.0.0.1', port: 9464 });
    expect(metricsListenOf('0.0.0.0:9464')).toEqual({ address: '0.0.0.0', port: 9464 });
    expect(metricsListenOf('[::1]:9464')).toEqual({ address: '::1', port: 9464 });
    for (const bad of ['', 'x', 'host:9464', '99999', '1.2.3:9464', '::1:9464', '9464:']) expect(metricsListenOf(bad), bad).toBeUndefined();
  });

  it('refuses an unreadable --metrics before starting', async () => {
    await expect(startBridge({ server: '127.0.0.1:1', mqtt: 'mqtt://127.0.0.1:1', metrics: 'localhost:9464' })).rejects.toMatchObject({
      code: 'STAGELINK_BRIDGE_ERR_OPTION',
      message: expect.stringContaining('--metrics takes [address:]port') as string,
    });
  });

  it("numbers health severities by core's ranking", () => {
    expect(HEALTH_SEVERITIES.map((severity) => severityRank(severity))).toEqual([0, 1, 2, 3, 4]);
  });

  it('counts each command result as refused, failed, late (landed or unknown), ok or duplicate', () => {
    expect(commandOutcome({ id: 'a', ok: true })).toBe('ok');
    expect(commandOutcome({ id: 'a', ok: false, duplicate: true, code: 'STAGELINK_BRIDGE_ERR_DUPLICATE' })).toBe('duplicate');
    expect(commandOutcome({ id: 'a', ok: false, code: 'STAGELINK_BRIDGE_ERR_TOO_OLD' })).toBe('refused');
    expect(commandOutcome({ id: 'a', ok: false, code: 'STAGELINK_ERR_CONFIRMATION_REQUIRED' })).toBe('refused');
    expect(commandOutcome({ id: 'a', ok: false, code: 'STAGELINK_ERR_LATE_LANDED', outcome: 'landed' })).toBe('late_landed');
    expect(commandOutcome({ id: 'a', ok: false, code: 'STAGELINK_ERR_LATE_UNKNOWN', outcome: 'unknown' })).toBe('late_unknown');
    expect(commandOutcome({ id: 'a', ok: false, code: 'STAGELINK_ERR_HTTP' })).toBe('failed');
    expect(commandOutcome({ id: null, ok: false })).toBe('failed');
  });

  it('the example Grafana dashboard asks one kind of query per target, counts per $__interval with a minimum, and picks a venue', async () => {
    const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as {
      panels: { title: string; type: string; interval?: string; targets?: { expr: string; range?: boolean; instant?: boolean }[] }[];
      templating: { list: { name: string; type: string; query?: string | { query: string }; includeAll?: boolean; allValue?: string }[] };
    };
    const venue = dashboard.templating.list.find((variable) => variable.name === 'venue');
    expect(venue).toMatchObject({ type: 'query', includeAll: true, allValue: '.*' });
    expect(typeof venue?.query === 'string' ? venue.query : venue?.query?.query).toBe('label_values(stagelink_bridge_up, venue)');
    const bridge = dashboard.templating.list.find((variable) => variable.name === 'bridge');
    expect(typeof bridge?.query === 'string' ? bridge.query : bridge?.query?.query).toContain('venue=~"$venue"');
    for (const panel of dashboard.panels) {
      for (const target of panel.targets ?? []) {
        const where = `${panel.title}: ${target.expr}`;
        // Both would make Grafana ask twice and draw the instant answer as one more series.
        expect([target.range === true, target.instant === true].filter(Boolean), where).toHaveLength(1);
        expect(target.instant === true, where).toBe(panel.type === 'stat');
        expect(target.expr, where).toContain('venue=~"$venue"');
        if (/increase\(/.test(target.expr) && target.range) {
          // One window per point, never overlapping (so a count is not counted twice), and never shorter than
          // three 5 s scrapes (so each window holds two samples at least).
          expect(target.expr, where).toContain('[$__interval]');
          expect(panel.interval, where).toBe('15s');
        }
      }
    }
  });
});

describe.skipIf(MOSQUITTO_MISSING)('Prometheus metrics on /metrics, against the simulated session through a real Mosquitto', () => {
  let venue: TestVenue;
  let bridge: Bridge;
  let desk: Watcher;
  let url: string;
  const lines: { level: string; event: string; fields: LogFields }[] = [];
  const log: BridgeLog = {
    info: (event, fields = {}) => lines.push({ level: 'info', event, fields }),
    warn: (event, fields = {}) => lines.push({ level: 'warn', event, fields }),
    error: (event, fields = {}) => lines.push({ level: 'error', event, fields }),
  };
  const machines = () => venue.session.sim.machines().map((machine) => machine.hostname);
  const control = (action: ControlRequest) => simControl(venue.session.sim.mediaServer.url, action);

  beforeAll(async () => {
    venue = await startVenue();
    desk = await Watcher.connect(venue.broker.url, [`${PREFIX}/result`, `${PREFIX}/machines/+/health`]);
    bridge = await venue.startBridge(PREFIX, { metrics: '127.0.0.1:0', log });
    url = bridge.metricsUrl as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
  });

  afterAll(async () => {
    await bridge?.close();
    await desk?.close();
    await venue?.close();
  });

  const fpsOfEvery = (samples: Sample[]) => machines().every((machine) => sampleValue(samples, 'stagelink_fps', { machine }) !== undefined);

  it("serves every machine's FPS, health severity, the director and the live link", async () => {
    const samples = await scrapeUntil(url, (seen) => fpsOfEvery(seen) && machines().every((machine) => sampleValue(seen, 'stagelink_health_severity', { machine }) !== undefined), 20_000, 'FPS and health of every machine');
    // The session's health does not change during the test: what MQTT says now is what was scraped.
    for (const machine of machines()) await desk.waitFor((message) => message.topic === `${PREFIX}/machines/${machine}/health`, 5000, 0, `health of ${machine}`);
    for (const machine of machines()) {
      const fps = sampleValue(samples, 'stagelink_fps', { machine }) as number;
      expect(fps, machine).toBeGreaterThan(1);
      expect(sampleValue(samples, 'stagelink_machine_stale', { machine, value: 'fps' }), machine).toBe(0);
      // The severity published on MQTT, as a number by core's ranking, and the state gauge saying which it is.
      const published = (desk.last(`${PREFIX}/machines/${machine}/health`)?.json as { severity: string }).severity;
      const severity = sampleValue(samples, 'stagelink_health_severity', { machine }) as number;
      expect(severity, machine).toBe(HEALTH_SEVERITIES.indexOf(published as (typeof HEALTH_SEVERITIES)[number]));
      const states = samples.filter((sample) => sample.name === 'stagelink_health_state' && sample.labels.machine === machine);
      expect(states.map((sample) => sample.labels.severity).sort()).toEqual(['busy', 'error', 'offline', 'ok', 'warning']);
      expect(states.filter((sample) => sample.value === 1).map((sample) => sample.labels.severity)).toEqual([published]);
    }
    const director = venue.session.sim.machines().find((machine) => machine.role === 'director')?.hostname;
    expect(samples.filter((sample) => sample.name === 'stagelink_director_info').map((sample) => sample.labels.hostname)).toEqual([director]);
    expect(sampleValue(samples, 'stagelink_bridge_up', { prefix: PREFIX })).toBe(1);
    expect(sampleValue(samples, 'stagelink_live_link_up')).toBe(1);
    expect(sampleValue(samples, 'stagelink_transport_stale', { transport: 'main', value: 'state' })).toBe(0);
    expect(sampleValue(samples, 'stagelink_commands_total', { via: 'mqtt', result: 'ok' })).toBe(0);
  });

  it('keeps the lowest FPS since the last scrape, so a drop between two scrapes is seen, then starts again from the value held', async () => {
    const machine = machines()[0] as string;
    const fpsTopic = `${PREFIX}/machines/${machine}/fps`;
    const watcher = await Watcher.connect(venue.broker.url, [fpsTopic]);
    try {
      await scrapeUntil(url, fpsOfEvery, 20_000, 'FPS of every machine');
      const since = watcher.messages.length;
      await control({ action: 'machineFps', hostname: machine, fps: 31 });
      await watcher.waitFor((message) => (message.json as { value: number }).value === 31, 10_000, since, `${machine} at 31 FPS`);
      const back = watcher.messages.length;
      await control({ action: 'machineFps', hostname: machine });
      await watcher.waitFor((message) => (message.json as { value: number }).value > 59, 10_000, back, `${machine} back near 60 FPS`);
      // The drop came and went between two scrapes: the FPS gauge says 60, the lowest since the last scrape 31.
      const after = await scrape(url);
      expect(sampleValue(after, 'stagelink_fps', { machine })).toBeGreaterThan(59);
      expect(sampleValue(after, 'stagelink_fps_min', { machine })).toBe(31);
      // The other machines' own FPS moves too (a simulated machine dips now and then): their lowest is theirs, never the drop's.
      for (const other of machines().filter((each) => each !== machine)) expect(sampleValue(after, 'stagelink_fps_min', { machine: other }), other).toBeGreaterThan(31);
      // The scrape started a new period: the next one sees only what came since.
      expect(sampleValue(await scrape(url), 'stagelink_fps_min', { machine })).toBeGreaterThan(59);
    } finally {
      await control({ action: 'machineFps', hostname: machine });
      await watcher.close();
    }
  }, 40_000);

  it('answers other paths 404 and other methods 405, in the text format', async () => {
    expect((await fetch(url.replace(/\/metrics$/, '/'))).status).toBe(404);
    expect((await fetch(url, { method: 'POST' })).status).toBe(405);
    expect((await fetch(url)).headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('marks FPS, takeover and clocks stale when the live stream drops, counts the reconnect, and clears the marks', async () => {
    await scrapeUntil(url, (seen) => fpsOfEvery(seen) && sampleValue(seen, 'stagelink_transport_stale', { transport: 'main', value: 'clock' }) === 0, 20_000, 'live values and a live clock');
    const reconnects = sampleValue(await scrape(url), 'stagelink_live_reconnects_total') as number;
    await control({ action: 'refuseUpgrades', on: true });
    try {
      await control({ action: 'dropSockets' });
      const stale = await scrapeUntil(url, (seen) => machines().every((machine) => sampleValue(seen, 'stagelink_machine_stale', { machine, value: 'fps' }) === 1), 10_000, 'every FPS stale');
      for (const machine of machines()) expect(sampleValue(stale, 'stagelink_machine_stale', { machine, value: 'takeover' }), machine).toBe(1);
      expect(sampleValue(stale, 'stagelink_transport_stale', { transport: 'main', value: 'clock' })).toBe(1);
      expect(sampleValue(stale, 'stagelink_live_link_up')).toBe(0);
      // Health is polled over HTTP, which still answers: it stays live.
      for (const machine of machines()) expect(sampleValue(stale, 'stagelink_machine_stale', { machine, value: 'health' }), machine).toBe(0);
    } finally {
      await control({ action: 'refuseUpgrades', on: false });
    }
    const back = await scrapeUntil(url, (seen) => machines().every((machine) => sampleValue(seen, 'stagelink_machine_stale', { machine, value: 'fps' }) === 0), 25_000, 'every FPS live again');
    expect(sampleValue(back, 'stagelink_live_link_up')).toBe(1);
    expect(sampleValue(back, 'stagelink_live_reconnects_total')).toBe(reconnects + 1);
  }, 60_000);

  it('counts failed poll reads by read', async () => {
    const before = sampleValue(await scrape(url), 'stagelink_poll_errors_total', { read: 'transports' }) as number;
    await control({ action: 'stallBody', path: '/api/session/transport/transports', on: true });
    try {
      const failing = await scrapeUntil(url, (seen) => (sampleValue(seen, 'stagelink_poll_errors_total', { read: 'transports' }) as number) > before, 15_000, 'a failed transports read counted');
      expect(sampleValue(failing, 'stagelink_transport_stale', { transport: 'main', value: 'state' })).toBe(1);
    } finally {
      await control({ action: 'stallBody', path: '/api/session/transport/transports', on: false });
    }
    await scrapeUntil(url, (seen) => sampleValue(seen, 'stagelink_transport_stale', { transport: 'main', value: 'state' }) === 0, 15_000, 'the transport state live again');
  }, 40_000);

  it('counts commands by how they came and how they ended', async () => {
    const before = await scrape(url);
    const count = (samples: Sample[], result: string) => sampleValue(samples, 'stagelink_commands_total', { via: 'mqtt', result }) as number;
    const send = async (path: string, body: Record<string, unknown>, options: { retain?: boolean } = {}): Promise<unknown> => {
      const since = desk.messages.length;
      await desk.client.publishAsync(`${PREFIX}/cmd/${path}`, JSON.stringify(body), { qos: 1, retain: options.retain ?? false });
      const answer = await desk.waitFor((message) => (message.json as { id?: string }).id === body.id, 10_000, since, `the result of ${String(body.id)}`);
      return answer.json;
    };
    const stamp = Date.now();
    expect(await send('transport/play', { transport: 'main', id: `ok-${stamp}`, sentAt: Date.now() })).toMatchObject({ ok: true });
    expect(await send('transport/play', { transport: 'main', id: `ok-${stamp}`, sentAt: Date.now() })).toMatchObject({ ok: false, duplicate: true });
    expect(await send('transport/play', { transport: 'main', id: `old-${stamp}`, sentAt: Date.now() - 60_000 })).toMatchObject({ ok: false, code: 'STAGELINK_BRIDGE_ERR_TOO_OLD' });
    expect(await send('failover/failovermachine', { machine: 'Actor 1', id: `unconfirmed-${stamp}`, sentAt: Date.now() })).toMatchObject({ ok: false });
    expect(await send('transport/play', { transport: 'no such transport', id: `failed-${stamp}`, sentAt: Date.now() })).toMatchObject({ ok: false });
    // A late cue: the director answers after the command's deadline, on a transport already playing.
    await control({ action: 'slowAnswer', path: '/api/session/transport/play', ms: 3500 });
    try {
      expect(await send('transport/play', { transport: 'main', id: `late-${stamp}`, sentAt: Date.now() })).toMatchObject({ ok: false, outcome: 'unknown' });
    } finally {
      await control({ action: 'slowAnswer', path: '/api/session/transport/play', ms: 0 });
    }
    const after = await scrape(url);
    expect({
      ok: count(after, 'ok') - count(before, 'ok'),
      duplicate: count(after, 'duplicate') - count(before, 'duplicate'),
      refused: count(after, 'refused') - count(before, 'refused'),
      failed: count(after, 'failed') - count(before, 'failed'),
      late_unknown: count(after, 'late_unknown') - count(before, 'late_unknown'),
      late_landed: count(after, 'late_landed') - count(before, 'late_landed'),
    }).toEqual({ ok: 1, duplicate: 1, refused: 2, failed: 1, late_unknown: 1, late_landed: 0 });
    expect(sampleValue(after, 'stagelink_commands_total', { via: 'osc', result: 'ok' })).toBe(0);
  }, 40_000);

  it("the example Grafana dashboard's queries name only metrics the bridge serves", async () => {
    const served = new Set((await scrape(url)).map((sample) => sample.name));
    const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as {
      schemaVersion: number;
      panels: { title: string; targets?: { expr: string }[] }[];
      templating: { list: { name: string; type: string; query?: string | { query: string } }[] };
    };
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.templating.list.find((variable) => variable.name === 'DS_PROMETHEUS')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    const exprs = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })));
    expect(exprs.length).toBeGreaterThanOrEqual(8);
    const named = new Set<string>();
    for (const { panel, expr } of exprs) {
      const names = metricNamesOf(expr);
      expect(names.length, `${panel}: ${expr}`).toBeGreaterThan(0);
      for (const name of names) {
        expect(served.has(name), `${panel}: ${expr} reads ${name}, which /metrics does not serve`).toBe(true);
        named.add(name);
      }
    }
    for (const variable of dashboard.templating.list.filter((each) => each.type === 'query')) {
      const query = typeof variable.query === 'string' ? variable.query : (variable.query?.query ?? '');
      const metric = /^label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(?:\{[^}]*\}\s*)?,/.exec(query)?.[1];
      expect(metric && served.has(metric), `variable ${variable.name}: ${query}`).toBe(true);
    }
    // The panels the README promises.
    for (const name of ['stagelink_fps', 'stagelink_health_severity', 'stagelink_machine_stale', 'stagelink_commands_total']) expect(named.has(name), name).toBe(true);
  });

  it('logs a clear error when the port is taken, and the bridge runs on without metrics', async () => {
    const port = Number(new URL(url).port);
    const second = await startBridge({ server: venue.session.sim.mediaServer.url, mqtt: venue.broker.url, prefix: `${PREFIX}-2`, hosts: venue.session.hosts, metrics: String(port), log });
    try {
      expect(second.metricsUrl).toBeUndefined();
      const said = lines.find((line) => line.event === 'metrics not listening');
      expect(said).toMatchObject({ level: 'error', fields: { address: `127.0.0.1:${port}`, reason: 'the port is taken by another program', fix: expect.stringContaining('--metrics') as string } });
      // The first bridge's metrics are still served.
      expect(sampleValue(await scrape(url), 'stagelink_bridge_up', { prefix: PREFIX })).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('stops listening when the bridge closes, a scraper kept alive included', async () => {
    const own = await venue.startBridge(`${PREFIX}-3`, { metrics: '0' });
    const ownUrl = new URL(own.metricsUrl as string);
    expect(ownUrl.hostname).toBe('127.0.0.1');
    // A connection kept open, as Prometheus keeps its scrape connection.
    const socket = connect(Number(ownUrl.port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(`GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
    await once(socket, 'data');
    const ended = once(socket, 'close');
    await own.close();
    await ended;
    await expect(fetch(ownUrl)).rejects.toThrow();
    await own.close();
  });
});
