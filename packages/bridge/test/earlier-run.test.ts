import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../src/index.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/earlier-run';
/** The earlier run was this bridge: the same client id published what is left. */
const CLIENT_ID = 'stagelink-bridge-earlier-run';
/** What an earlier run published for a machine that has left the session since, and a transport no longer there. */
const LEFTOVERS: Record<string, unknown> = {
  [`${PREFIX}/machines/GONE01/fps`]: { value: 60, average: 60, alert: 'ok' },
  [`${PREFIX}/machines/GONE01/health`]: { severity: 'ok', states: [] },
  [`${PREFIX}/machines/GONE01/takeover`]: { value: false },
  [`${PREFIX}/transports/old show/state`]: { playmode: 'Play', playing: true, track: 'Finale' },
};

describe.skipIf(MOSQUITTO_MISSING)('retained topics of an earlier run, on a real Mosquitto', () => {
  let venue: TestVenue;
  let bridge: Bridge;
  let watcher: Watcher;
  let director: string;

  beforeAll(async () => {
    venue = await startVenue();
    const earlier = await connectAsync(venue.broker.url, { protocolVersion: 5, clientId: CLIENT_ID });
    for (const [topic, payload] of Object.entries(LEFTOVERS)) await earlier.publishAsync(topic, JSON.stringify(payload), { qos: 1, retain: true });
    // What the earlier run published for a machine that is still in the session: this run's values replace it.
    director = venue.session.sim.machines().find((machine) => machine.role === 'director')?.hostname as string;
    await earlier.publishAsync(`${PREFIX}/machines/${director}/health`, JSON.stringify({ severity: 'error', states: [] }), { qos: 1, retain: true });
    await earlier.endAsync();
    watcher = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`]);
    bridge = await venue.startBridge(PREFIX, { clientId: CLIENT_ID });
  });

  afterAll(async () => {
    await bridge?.close();
    await watcher?.close();
    await venue?.close();
  });

  const cleared = (topic: string) => (message: Received) => message.topic === topic && message.json === '' && !message.retain;

  it('clears the topics of machines and transports this run does not publish, and keeps its own', async () => {
    for (const topic of Object.keys(LEFTOVERS)) await watcher.waitFor(cleared(topic), 15_000, 0, `${topic} cleared`);

    // A consumer that joins now is handed this run's topics only.
    const late = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`]);
    try {
      const hostnames = venue.session.sim.machines().map((machine) => machine.hostname);
      for (const hostname of hostnames) await late.waitFor((message) => message.topic === `${PREFIX}/machines/${hostname}/health`, 5000, 0, `health of ${hostname}`);
      await late.waitFor((message) => message.topic === `${PREFIX}/transports/main/state`, 5000, 0, 'the main transport');
      const retained = new Set(late.messages.filter((message) => message.retain).map((message) => message.topic));
      expect(Object.keys(LEFTOVERS).filter((topic) => retained.has(topic))).toEqual([]);
      for (const hostname of hostnames) expect(retained.has(`${PREFIX}/machines/${hostname}/health`), hostname).toBe(true);
      expect(late.last(`${PREFIX}/machines/${director}/health`)?.json).not.toMatchObject({ severity: 'error' });
    } finally {
      await late.close();
    }
  });
});
