/**
 * RenderStream layers through the bridge, on a real Mosquitto and the simulator's session: each layer's workload on
 * its retained topic (a crashed one `error`), commands by MQTT and OSC under the failover's confirmation rule, and a
 * director without RenderStream (the `spec` dialect) that publishes nothing and answers commands "not offered".
 */
import { setTimeout as delay } from 'node:timers/promises';
import { NotDescribedError, NotOfferedError, StagelinkError, type LayersSnapshot, type MediaServer } from '@stagelink/core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { parseCommand } from '../src/commands.js';
import { haBaseId, haSlug, type HaComponent } from '../src/ha-discovery.js';
import type { Bridge, BridgeLog } from '../src/index.js';
import { silentLog } from '../src/log.js';
import { MqttState } from '../src/mqtt-state.js';
import { oscCommandOf } from '../src/osc-commands.js';
import { oscValuesOf } from '../src/osc-state.js';
import { NOT_OFFERED_RECHECK_MS, RenderStreamLayers } from '../src/renderstream-layers.js';
import { SessionStateStream } from '../src/session-state.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { Topics } from '../src/topics.js';
import { sampleValue, scrapeUntil } from './support/metrics.js';
import { freeUdpPort, LIBLO_MISSING, message, oscsend, OscPeer } from './support/osc.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);
if (LIBLO_MISSING) console.warn(`OSC part skipped: ${LIBLO_MISSING}`);

interface Result {
  id: string | null;
  ok: boolean;
  error?: string;
  code?: string;
}

interface Workload {
  name: string;
  uid: string;
  state: string;
  message?: string;
  stale?: true;
  reason?: string;
}

/** Publishes a command as a desk would (MQTT 5, its own response topic), answers its result. */
async function send(desk: Watcher, prefix: string, path: string, body: Record<string, unknown>): Promise<Result> {
  const correlation = `c${Math.random()}`;
  const since = desk.messages.length;
  await desk.client.publishAsync(`${prefix}/cmd/${path}`, JSON.stringify({ sentAt: Date.now(), ...body }), {
    qos: 1,
    properties: { responseTopic: 'desk/replies/rs', correlationData: Buffer.from(correlation) },
  });
  const result = await desk.waitFor((received) => received.topic === 'desk/replies/rs' && received.correlationData === correlation, 10_000, since, `the result of ${path}`);
  return result.json as Result;
}

describe('RenderStream commands as topics and OSC addresses', () => {
  it('reads the layer from the topic and needs confirm: true for stop only', () => {
    expect(parseCommand('renderstream/Unreal Stage/restart', { id: 'a' })).toEqual({ kind: 'renderstream', operation: 'restart', layer: 'Unreal Stage' });
    expect(parseCommand('renderstream/Notch FX/stop', { confirm: true })).toEqual({ kind: 'renderstream', operation: 'stop', layer: 'Notch FX' });
    expect(() => parseCommand('renderstream/Notch FX/stop', {})).toThrow(/needs "confirm": true/);
    expect(() => parseCommand('renderstream/Notch FX/start', { confirm: true })).toThrow(/Unknown field "confirm": start takes id and sentAt/);
    expect(() => parseCommand('renderstream/Notch FX/reboot', {})).toThrow(/"reboot" is not a RenderStream layer operation: use one of start, stop, restart, sync/);
    expect(() => parseCommand('renderstream/Notch FX', {})).toThrow(/cmd\/renderstream\/<layer>\/<start\|stop\|restart\|sync>/);
    expect(() => parseCommand('renderstream/a/b/restart', {})).toThrow(/is not a command/);
  });

  it('takes an OSC command at the address part of its layer, and confirms stop only with an explicit yes', () => {
    const root = '/stagelink/main';
    const segment = (part: string) => (part === 'Unreal_Stage' ? 'Unreal Stage' : part);
    expect(oscCommandOf(root, `${root}/renderstream/Unreal_Stage/restart`, [], undefined, segment)).toEqual({ path: 'renderstream/Unreal Stage/restart', body: {} });
    expect(oscCommandOf(root, `${root}/renderstream/Unreal_Stage/stop`, ['confirm'], undefined, segment)).toEqual({ path: 'renderstream/Unreal Stage/stop', body: { confirm: true } });
    expect(oscCommandOf(root, `${root}/renderstream/Unreal_Stage/stop`, [0], undefined, segment)).toEqual({ path: 'renderstream/Unreal Stage/stop', body: {} });
    expect(oscCommandOf(root, `${root}/renderstream/Unreal_Stage/restart`, ['{"id":"x"}'], undefined, segment)).toEqual({ path: 'renderstream/Unreal Stage/restart', body: { id: 'x' } });
    expect(() => oscCommandOf(root, `${root}/renderstream/Unreal_Stage/restart`, [1], undefined, segment)).toThrow(/restart takes no arguments/);
    expect(() => oscCommandOf(root, `${root}/renderstream/Unreal_Stage`, [], undefined, segment)).toThrow(/renderstream\/<layer>\/<op>/);
  });
});

describe('RenderStream layers as members of the session', () => {
  const layer = (name: string, uid: string, state = 'running') => ({ name, uid, workload: { state } });
  const notOffered = () => ({ message: 'offered no renderstream/layers', error: new NotOfferedError('offered no renderstream/layers', 404, undefined) });

  /** The layers over a watch this test drives, feeding the real stream and MQTT adapter. */
  function layersOver() {
    let tell: ((snapshot: LayersSnapshot) => void) | undefined;
    let watches = 0;
    let closes = 0;
    const mediaServer = {
      renderstream: {
        watch: (onChange: (snapshot: LayersSnapshot) => void) => {
          watches++;
          tell = onChange;
          return { current: undefined, close: () => void closes++ };
        },
      },
    } as unknown as MediaServer;
    const published: [string, string][] = [];
    const topics = new Topics('venue');
    const stream = new SessionStateStream();
    stream.use(new MqttState(topics, { publishRetained: (topic, payload) => published.push([topic, payload]), connected: true }));
    stream.start();
    const layers = new RenderStreamLayers(mediaServer, stream, 1000, silentLog);
    layers.start();
    return { layers, published, snapshot: (snapshot: LayersSnapshot) => tell?.(snapshot), counts: () => ({ watches, closes }) };
  }

  it('clears the topic of a layer that leaves the list, and keeps the others, stale, through a 404 while the director loads', () => {
    const { layers, published, snapshot, counts } = layersOver();
    snapshot({ status: 'online', layers: [layer('Unreal Stage', '1'), layer('Notch/FX', '2')], readAt: 1 });
    expect(published).toEqual([
      ['venue/renderstream/Unreal Stage', '{"name":"Unreal Stage","uid":"1","state":"running"}'],
      ['venue/renderstream/Notch_FX', '{"name":"Notch/FX","uid":"2","state":"running"}'],
    ]);
    expect(layers.bySegment('Notch_FX')?.name).toBe('Notch/FX');
    expect(layers.byOscName('Unreal_Stage')?.name).toBe('Unreal Stage');
    published.length = 0;
    snapshot({ status: 'online', layers: [layer('Unreal Stage', '1')], readAt: 2 });
    expect(published).toEqual([['venue/renderstream/Notch_FX', '']]);
    published.length = 0;
    // Unreachable while it restarts, then a 404 while it loads its project: a failed read each, no layer leaves.
    snapshot({ status: 'offline', layers: [], problem: { message: 'no answer', error: new StagelinkError('no answer') } });
    snapshot({ status: 'offline', layers: [], problem: notOffered() });
    expect(published.map(([topic, payload]) => [topic, (JSON.parse(payload) as { stale?: boolean }).stale])).toEqual([['venue/renderstream/Unreal Stage', true]]);
    expect(layers.offer).toBe('offered');
    expect(layers.bySegment('Unreal Stage')?.uid).toBe('1');
    expect(counts()).toEqual({ watches: 1, closes: 0 });
    snapshot({ status: 'online', layers: [layer('Unreal Stage', '1')], readAt: 3 });
    expect(published.at(-1)).toEqual(['venue/renderstream/Unreal Stage', '{"name":"Unreal Stage","uid":"1","state":"running"}']);
    layers.close();
  });

  it('stops reading a director whose first answer is a 404, and asks again a minute later or after a director change', () => {
    vi.useFakeTimers();
    onTestFinished(() => void vi.useRealTimers());
    const { layers, published, snapshot, counts } = layersOver();
    snapshot({ status: 'offline', layers: [], problem: notOffered() });
    expect(layers.offer).toBe('not offered');
    expect(published).toEqual([]);
    expect(counts()).toEqual({ watches: 1, closes: 1 });
    // A director still loading its project when the bridge started: asked again, and its layers come.
    vi.advanceTimersByTime(NOT_OFFERED_RECHECK_MS);
    expect(counts().watches).toBe(2);
    snapshot({ status: 'online', layers: [layer('Unreal Stage', '1')], readAt: 1 });
    expect(layers.offer).toBe('offered');
    expect(published).toHaveLength(1);
    snapshot({ status: 'offline', layers: [], problem: notOffered() });
    expect(counts()).toEqual({ watches: 2, closes: 1 });
    layers.close();
  });

  it('asks a director with no RenderStream again after a director change', () => {
    const { layers, snapshot, counts } = layersOver();
    snapshot({ status: 'offline', layers: [], problem: notOffered() });
    expect(counts()).toEqual({ watches: 1, closes: 1 });
    layers.directorChanged();
    expect(layers.offer).toBe('unknown');
    expect(counts().watches).toBe(2);
    layers.close();
    expect(counts().closes).toBe(2);
  });

  it('counts the layer list as read only once it answered or said it has none: a failed read lets no earlier topic be swept', () => {
    const { layers, snapshot } = layersOver();
    snapshot({ status: 'offline', layers: [], problem: { message: 'no answer in 2 s', error: new StagelinkError('no answer in 2 s') } });
    expect(layers.read).toBe(false);
    snapshot({ status: 'online', layers: [layer('Unreal Stage', '1')], readAt: 1 });
    expect(layers.read).toBe(true);
    layers.close();
    const other = layersOver();
    other.snapshot({ status: 'offline', layers: [], problem: notOffered() });
    expect(other.layers.read).toBe(true);
    other.layers.close();
  });

  it('takes a build whose own description lacks the layer list as one without RenderStream', () => {
    const { layers, published, snapshot, counts } = layersOver();
    const message = "this director's API 2.0.3 offers no `renderstream/layers`";
    snapshot({ status: 'offline', layers: [], problem: { message, error: new NotDescribedError(message) } });
    expect(layers.offer).toBe('not offered');
    expect(published).toEqual([]);
    expect(counts()).toEqual({ watches: 1, closes: 1 });
  });

  it("sends a layer's workload over OSC at its address part, with its stale mark", () => {
    const value = { name: 'Unreal Stage', uid: '1', state: 'error', message: 'exited' };
    expect(oscValuesOf({ what: 'layer', which: 'Unreal Stage', part: 'workload', value, marks: { stale: true, reason: 'read failed' } })).toEqual([
      { address: '/renderstream/Unreal_Stage/workload', args: [{ type: 's', value: 'error' }] },
      { address: '/renderstream/Unreal_Stage/workload/stale', args: [{ type: 'i', value: 1 }] },
    ]);
  });

  it("marks a layer's workload stale while the list cannot be read, never removing it", () => {
    const { published, snapshot } = layersOver();
    snapshot({ status: 'online', layers: [layer('Unreal Stage', '1', 'error')], readAt: 1 });
    published.length = 0;
    snapshot({ status: 'offline', layers: [], problem: { message: 'unreachable', error: new StagelinkError('unreachable') } });
    expect(published).toEqual([['venue/renderstream/Unreal Stage', '{"name":"Unreal Stage","uid":"1","state":"error","stale":true,"reason":"read failed"}']]);
  });
});

describe.skipIf(MOSQUITTO_MISSING)('RenderStream layers on a director that offers them (r34)', () => {
  const PREFIX = 'test/rs';
  const ROOT = '/stagelink/rs';
  let venue: TestVenue;
  let bridge: Bridge;
  let desk: Watcher;
  let port: number;
  let peer: OscPeer;

  beforeAll(async () => {
    venue = await startVenue(undefined, { dialect: 'r34' });
    port = await freeUdpPort();
    desk = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`, 'desk/replies/#']);
    // What an earlier run left: a layer this director no longer has, and one it has.
    await desk.client.publishAsync(topic('Gone Layer'), JSON.stringify({ name: 'Gone Layer', uid: '9', state: 'running' }), { qos: 1, retain: true });
    await desk.client.publishAsync(topic('Notch FX'), JSON.stringify({ name: 'Notch FX', uid: '9100000000000000002', state: 'error' }), { qos: 1, retain: true });
    bridge = await venue.startBridge(PREFIX, { oscListen: `127.0.0.1:${port}`, oscAllow: ['127.0.0.1'], metrics: '127.0.0.1:0', haDiscovery: true });
    peer = await OscPeer.bind('127.0.0.1');
    await desk.waitFor(workload('Unreal Stage', 'running'), 20_000, 0, 'the Unreal Stage layer running');
  });

  afterAll(async () => {
    await peer?.close();
    await desk?.close();
    await bridge?.close();
    await venue?.close();
  });

  const topic = (layer: string) => `${PREFIX}/renderstream/${layer}`;
  const workload = (layer: string, state: string) => (received: Received) =>
    received.topic === topic(layer) && (received.json as Workload).state === state && (received.json as Workload).stale !== true;
  const layerRequests = (since: number, path: string) => venue.session.cuesSince(since).filter((request) => request.path === `/api/session/renderstream/${path}`).length;

  /** Crashes the layer's workload; its newest message counts (a workload already in error stays so). */
  async function crash(layer: string): Promise<Received> {
    const since = Math.max(0, desk.messages.findLastIndex((received) => received.topic === topic(layer)));
    await venue.session.control({ action: 'crashWorkload', layer: { name: layer } });
    return desk.waitFor(workload(layer, 'error'), 10_000, since, `${layer} in error`);
  }

  it('clears the topic of a layer an earlier run published that the director no longer lists, and keeps the others', async () => {
    await desk.waitFor((received) => received.topic === topic('Gone Layer') && received.json === '', 20_000, 0, 'the earlier run\'s layer cleared');
    const cleared = desk.messages.filter((received) => received.json === '' && received.topic.startsWith(`${PREFIX}/renderstream/`)).map((received) => received.topic);
    expect(cleared).toEqual([topic('Gone Layer')]);
    expect((desk.last(topic('Notch FX'))?.json as Workload).state).toBe('running');
  });

  it("publishes each layer's workload retained, and a crashed workload as error with the director's message", async () => {
    for (const name of ['Unreal Stage', 'Notch FX', 'TouchDesigner Data']) await desk.waitFor(workload(name, 'running'), 10_000, 0, `${name} running`);
    expect(desk.last(topic('Notch FX'))?.json).toEqual({ name: 'Notch FX', uid: '9100000000000000002', state: 'running' });
    const crashed = await crash('Unreal Stage');
    expect(crashed.json).toEqual({ name: 'Unreal Stage', uid: '9100000000000000001', state: 'error', message: expect.any(String) as string });
    // Retained: a consumer that joins now is told the crash.
    const late = await Watcher.connect(venue.broker.url, [topic('Unreal Stage')]);
    try {
      const retained = await late.waitFor((received) => received.topic === topic('Unreal Stage'), 5000, 0, 'the retained workload');
      expect(retained.retain).toBe(true);
      expect((retained.json as Workload).state).toBe('error');
    } finally {
      await late.close();
    }
    const samples = await scrapeUntil(bridge.metricsUrl as string, (read) => sampleValue(read, 'stagelink_renderstream_workload_ok', { layer: 'Unreal Stage' }) === 0, 10_000, 'the crashed workload');
    expect(sampleValue(samples, 'stagelink_renderstream_workload_ok', { layer: 'Notch FX' })).toBe(1);
    const summary = await desk.waitFor(
      (received) => received.topic === `${PREFIX}/summary` && (received.json as { renderstream?: Record<string, Workload> }).renderstream?.['Unreal Stage']?.state === 'error',
      10_000,
      0,
      'the summary with the crashed workload',
    );
    expect(Object.keys((summary.json as { renderstream: object }).renderstream).sort()).toEqual(['Notch FX', 'TouchDesigner Data', 'Unreal Stage']);
  });

  it("offers Home Assistant a problem sensor of each layer's workload on the session's device", async () => {
    const ha = await Watcher.connect(venue.broker.url, ['homeassistant/device/+/config']);
    try {
      const key = `${haBaseId(PREFIX)}-layer-${haSlug('Unreal Stage')}-workload`;
      const config = await ha.waitFor((received) => received.topic === `homeassistant/device/${haBaseId(PREFIX)}/config` && key in ((received.json as { cmps?: object }).cmps ?? {}), 10_000, 0, 'the session device with the layers');
      expect((config.json as { cmps: Record<string, HaComponent> }).cmps[key]).toMatchObject({
        p: 'binary_sensor',
        device_class: 'problem',
        state_topic: topic('Unreal Stage'),
        value_template: "{{ 'OFF' if value_json.state == 'running' else 'ON' }}",
      });
    } finally {
      await ha.close();
    }
  });

  it('restarts a crashed workload from cmd/renderstream/<layer>/restart, and the topic goes back to running', async () => {
    await crash('Unreal Stage');
    const since = desk.messages.length;
    expect(await send(desk, PREFIX, 'renderstream/Unreal Stage/restart', { id: 'rs-restart-1' })).toEqual({ id: 'rs-restart-1', ok: true });
    await desk.waitFor(workload('Unreal Stage', 'running'), 10_000, since, 'Unreal Stage running again');
  });

  it('refuses stop without confirm as an unconfirmed failover is refused, and stops the layer with it', async () => {
    const since = venue.session.requests.length;
    for (const confirm of [undefined, false, 'yes']) {
      const refused = await send(desk, PREFIX, 'renderstream/Notch FX/stop', confirm === undefined ? {} : { confirm });
      expect(refused).toMatchObject({ ok: false, code: 'STAGELINK_ERR_CONFIRMATION_REQUIRED', error: expect.stringMatching(/"confirm": true/) as string });
    }
    expect(layerRequests(since, 'stoplayers')).toBe(0);
    const before = desk.messages.length;
    expect(await send(desk, PREFIX, 'renderstream/Notch FX/stop', { confirm: true })).toMatchObject({ ok: true });
    expect(layerRequests(since, 'stoplayers')).toBe(1);
    await desk.waitFor(workload('Notch FX', 'stopped'), 10_000, before, 'Notch FX stopped');
    const started = desk.messages.length;
    expect(await send(desk, PREFIX, 'renderstream/Notch FX/start', {})).toMatchObject({ ok: true });
    await desk.waitFor(workload('Notch FX', 'running'), 10_000, started, 'Notch FX running again');
  });

  it("marks every layer's workload stale, its last state held, while the list's answers stall, and live once they come", async () => {
    const path = '/api/session/renderstream/layers';
    const since = desk.messages.length;
    await venue.session.control({ action: 'stallBody', path, on: true });
    try {
      const stale = await desk.waitFor((received) => received.topic === topic('Notch FX') && (received.json as Workload).stale === true, 10_000, since, 'Notch FX marked stale');
      expect(stale.json).toEqual({ name: 'Notch FX', uid: '9100000000000000002', state: 'running', stale: true, reason: 'large answers fail (MTU?)' });
      await desk.waitFor((received) => received.topic === topic('Unreal Stage') && (received.json as Workload).stale === true, 10_000, since, 'Unreal Stage marked stale');
    } finally {
      await venue.session.control({ action: 'stallBody', path, on: false });
    }
    const live = desk.messages.length;
    await desk.waitFor(workload('Notch FX', 'running'), 10_000, live, 'Notch FX live again');
  });

  it('answers an unknown operation or layer with a clear error, and sends nothing', async () => {
    const since = venue.session.requests.length;
    const op = await send(desk, PREFIX, 'renderstream/Unreal Stage/reboot', {});
    expect(op).toMatchObject({ ok: false, code: 'STAGELINK_BRIDGE_ERR_UNKNOWN_COMMAND', error: expect.stringMatching(/start, stop, restart, sync/) as string });
    const layer = await send(desk, PREFIX, 'renderstream/Unreal Stag/restart', {});
    expect(layer).toMatchObject({ ok: false, code: 'STAGELINK_BRIDGE_ERR_UNKNOWN_LAYER', error: expect.stringMatching(/"Unreal Stag".*"Unreal Stage"/) as string });
    const extra = await send(desk, PREFIX, 'renderstream/Unreal Stage/restart', { layer: 'Notch FX' });
    expect(extra).toMatchObject({ ok: false, code: 'STAGELINK_BRIDGE_ERR_MALFORMED' });
    expect(venue.session.cuesSince(since)).toEqual([]);
  });

  it.skipIf(LIBLO_MISSING)('restarts a crashed workload from an allowed OSC sender (oscsend), the layer spelt as its OSC address part', async () => {
    await crash('TouchDesigner Data');
    const since = desk.messages.length;
    oscsend(port, `${ROOT}/renderstream/TouchDesigner_Data/restart`);
    await desk.waitFor(workload('TouchDesigner Data', 'running'), 10_000, since, 'TouchDesigner Data running again');
  });

  it('refuses an OSC stop without an explicit confirm, and answers the sender', async () => {
    const since = venue.session.requests.length;
    const before = peer.replies.length;
    await peer.send(port, message(`${ROOT}/renderstream/Notch_FX/stop`, { type: 'i', value: 0 }));
    const reply = await peer.waitForReply((answer) => answer.address === `${ROOT}/result`, 10_000, before);
    expect(reply.args).toEqual(['', 0, expect.stringMatching(/confirm/) as string]);
    expect(layerRequests(since, 'stoplayers')).toBe(0);
  });

  // Last: the layer it deletes stays deleted for this venue.
  it('takes a layer deleted from the project out of every output: its topic, the summary, Home Assistant and /metrics', async () => {
    const name = 'TouchDesigner Data';
    const device = `homeassistant/device/${haBaseId(PREFIX)}/config`;
    const key = `${haBaseId(PREFIX)}-layer-${haSlug(name)}-workload`;
    const ha = await Watcher.connect(venue.broker.url, [device]);
    try {
      await ha.waitFor((received) => key in ((received.json as { cmps?: object }).cmps ?? {}), 10_000, 0, `${name} in Home Assistant`);
      const since = desk.messages.length;
      const haSince = ha.messages.length;
      await venue.session.control({ action: 'removeLayer', layer: { name } });
      await desk.waitFor((received) => received.topic === topic(name) && received.json === '', 10_000, since, `${name}'s topic cleared`);
      const stub = await ha.waitFor((received) => Object.keys((received.json as { cmps: Record<string, object> }).cmps[key] ?? {}).join() === 'p', 10_000, haSince, 'the removal stub');
      await ha.waitFor((received) => !(key in (received.json as { cmps: object }).cmps), 5000, ha.messages.indexOf(stub) + 1, 'the config without the layer');
      await desk.waitFor(
        (received) => received.topic === `${PREFIX}/summary` && !Object.keys((received.json as { renderstream?: object }).renderstream ?? {}).includes(name),
        10_000,
        since,
        `the summary without ${name}`,
      );
      await scrapeUntil(bridge.metricsUrl as string, (read) => sampleValue(read, 'stagelink_renderstream_workload_ok', { layer: name }) === undefined, 10_000, `no series of ${name}`);
      const refused = await send(desk, PREFIX, `renderstream/${name}/restart`, {});
      expect(refused).toMatchObject({ ok: false, code: 'STAGELINK_BRIDGE_ERR_UNKNOWN_LAYER' });
    } finally {
      await ha.close();
    }
  });
});

describe.skipIf(MOSQUITTO_MISSING)('RenderStream on a director without it (spec)', () => {
  const PREFIX = 'test/rs-spec';
  let venue: TestVenue;
  let bridge: Bridge;
  let desk: Watcher;
  const lines: { level: string; event: string; fields?: Record<string, unknown> }[] = [];
  const log: BridgeLog = {
    info: (event, fields) => lines.push({ level: 'info', event, ...(fields ? { fields } : {}) }),
    warn: (event, fields) => lines.push({ level: 'warn', event, ...(fields ? { fields } : {}) }),
    error: (event, fields) => lines.push({ level: 'error', event, ...(fields ? { fields } : {}) }),
  };

  beforeAll(async () => {
    venue = await startVenue(undefined, { dialect: 'spec' });
    bridge = await venue.startBridge(PREFIX, { log });
    desk = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`, 'desk/replies/#']);
    await desk.waitFor((received) => received.topic === `${PREFIX}/session/health`, 20_000, 0, 'the session health');
  });

  afterAll(async () => {
    await desk?.close();
    await bridge?.close();
    await venue?.close();
  });

  it('reads the layer list once, publishes no renderstream topic and says so once in the log', async () => {
    await expect.poll(() => lines.filter((line) => line.event === 'renderstream not offered').length, { timeout: 10_000, interval: 50 }).toBe(1);
    // Several poll periods later: still one read, one line, no topic.
    await delay(3000);
    expect(venue.session.requests.filter((request) => request.path === '/api/session/renderstream/layers')).toHaveLength(1);
    expect(lines.filter((line) => JSON.stringify(line).includes('renderstream'))).toHaveLength(1);
    expect(desk.messages.filter((received) => received.topic.startsWith(`${PREFIX}/renderstream/`))).toEqual([]);
  });

  it('answers a RenderStream command "not offered", and sends nothing', async () => {
    await expect.poll(() => lines.some((line) => line.event === 'renderstream not offered'), { timeout: 10_000, interval: 50 }).toBe(true);
    const since = venue.session.requests.length;
    const result = await send(desk, PREFIX, 'renderstream/Unreal Stage/restart', { id: 'rs-none' });
    expect(result).toMatchObject({ id: 'rs-none', ok: false, code: 'STAGELINK_ERR_NOT_OFFERED', error: expect.stringMatching(/does not offer RenderStream/) as string });
    expect(venue.session.cuesSince(since)).toEqual([]);
  });
});
