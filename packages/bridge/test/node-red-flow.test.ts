import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../src/index.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { startNodeRed, type NodeRed } from './support/node-red.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

/** The README's flow, as a venue imports it: only its broker's address changes. */
const FLOW = new URL('../examples/venue-automation.json', import.meta.url);
/** The prefix the example flow is written for. */
const PREFIX = 'stagelink/main-stage';
const ALARM = 'venue/lights/show-alarm/set';
const FOYER = 'venue/displays/foyer/set';

interface Alarm {
  state: 'ON' | 'OFF';
  color: { r: number; g: number; b: number };
}

describe.skipIf(MOSQUITTO_MISSING)("the bridge README's Node-RED flow (Node-RED's own MQTT nodes) on a real Mosquitto", () => {
  let venue: TestVenue;
  let bridge: Bridge;
  let watcher: Watcher;
  let nodeRed: NodeRed | undefined;

  beforeAll(async () => {
    venue = await startVenue();
    watcher = await Watcher.connect(venue.broker.url, ['venue/#', `${PREFIX}/#`]);
    bridge = await venue.startBridge(PREFIX);
    await watcher.waitFor(on(`${PREFIX}/session/health`), 10_000, 0, 'session health from the bridge');
    await watcher.waitFor(on(`${PREFIX}/transports/main/state`), 10_000, 0, 'the main transport from the bridge');
    const flows = JSON.parse(await readFile(FLOW, 'utf8')) as { type: string; broker?: string; port?: string }[];
    for (const node of flows.filter((candidate) => candidate.type === 'mqtt-broker')) Object.assign(node, { broker: '127.0.0.1', port: String(venue.broker.port) });
    nodeRed = await startNodeRed(flows);
  }, 90_000);

  afterAll(async () => {
    await nodeRed?.close();
    await bridge?.close();
    await watcher?.close();
    await venue?.close();
  }, 30_000);

  function on(topic: string) {
    return (message: Received) => message.topic === topic;
  }
  /** What the flow's alarm function makes of a session severity (the flow's own rule, written out). */
  const alarmFor = (severity: string): Alarm => {
    if (severity === 'error' || severity === 'offline') return { state: 'ON', color: { r: 255, g: 0, b: 0 } };
    if (severity === 'warning' || severity === 'busy') return { state: 'ON', color: { r: 255, g: 160, b: 0 } };
    return { state: 'OFF', color: { r: 0, g: 255, b: 0 } };
  };
  const failure = () => `\n--- Node-RED ---\n${nodeRed?.output().slice(-3000) ?? ''}`;

  it("lights the alarm in the colour of the session's health, read through mqtt in", async () => {
    const severity = (watcher.last(`${PREFIX}/session/health`)?.json as { severity: string }).severity;
    const alarm = await watcher.waitFor(on(ALARM), 20_000, 0, `the alarm light${failure()}`);
    expect(alarm.json).toMatchObject(alarmFor(severity));
  });

  it('fires a cue from the GO button through mqtt out, once, and shows the new state through mqtt in', async () => {
    const since = watcher.messages.length;
    const cues = venue.session.requests.length;
    await watcher.client.publishAsync('venue/buttons/go', 'pressed', { qos: 1 });
    const result = await watcher.waitFor(on(`${PREFIX}/result/nodered`), 10_000, since, `the cue's result on the flow's response topic${failure()}`);
    expect(result.json).toMatchObject({ ok: true, id: expect.stringMatching(/^nodered-go-/) as string });
    expect(result.correlationData).toBe((result.json as { id: string }).id);
    await watcher.waitFor((message) => on(`${PREFIX}/transports/main/state`)(message) && (message.json as { track: string; playing: boolean }).track === 'Intro' && (message.json as { playing: boolean }).playing, 10_000, since, 'Intro playing');
    const shown = await watcher.waitFor((message) => on(FOYER)(message) && (message.json as { text: string }).text === 'Intro: playing', 10_000, since, `the foyer display showing Intro playing${failure()}`);
    expect(shown.json).toEqual({ text: 'Intro: playing' });
    expect(venue.session.cuesSince(cues).map((request) => request.path)).toEqual(['/api/session/transport/gototrack']);
  });

  it('turns the alarm purple when the bridge goes offline: a dead bridge never looks like a healthy show', async () => {
    const since = watcher.messages.length;
    await bridge.close();
    const alarm = await watcher.waitFor(on(ALARM), 10_000, since, `the alarm light after the bridge stopped${failure()}`);
    expect(alarm.json).toMatchObject({ state: 'ON', color: { r: 128, g: 0, b: 255 } });
  });
});
