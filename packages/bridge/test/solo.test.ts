import { startSimulator, type Dialect, type Simulator } from '@stagelink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridge, type Bridge } from '../src/index.js';
import { MOSQUITTO_MISSING, startMosquitto, type Mosquitto } from '../src/testing.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const DIALECTS: readonly Dialect[] = ['spec', 'r34'];

/** The hostname a session's machine reports in the health answer: what monitors and the session go by. */
async function reportedHostname(url: string): Promise<string> {
  const answer = (await (await fetch(`${url}/api/session/status/health`)).json()) as { result: { machine: { hostname: string } }[] };
  const hostname = answer.result[0]?.machine.hostname;
  if (!hostname) throw new Error('the health answer lists no machine');
  return hostname;
}

describe.skipIf(MOSQUITTO_MISSING).each(DIALECTS)('a machine running solo, %s dialect', (dialect) => {
  let broker: Mosquitto;
  let sim: Simulator;
  let hostname: string;
  const bridges: Bridge[] = [];
  const watchers: Watcher[] = [];

  beforeAll(async () => {
    broker = await startMosquitto();
    sim = await startSimulator({ scenario: 'solo', dialect });
    hostname = await reportedHostname(sim.mediaServer.url);
  });

  afterAll(async () => {
    for (const bridge of bridges) await bridge.close();
    for (const watcher of watchers) await watcher.close();
    await sim?.close();
    await broker?.close();
  });

  const fresh = (topic: string) => (message: Received) => message.topic === topic && (message.json as { stale?: boolean }).stale !== true;

  for (const followDirector of [true, false]) {
    it(`publishes the machine's FPS and names it the director by its hostname${followDirector ? ', following the director' : ''}`, async () => {
      const prefix = `test/solo/${dialect}/${followDirector ? 'follow' : 'fixed'}`;
      const watcher = await Watcher.connect(broker.url, [`${prefix}/#`]);
      watchers.push(watcher);
      bridges.push(await startBridge({ server: sim.mediaServer.url, mqtt: broker.url, prefix, followDirector, pollIntervalMs: 500, fpsHz: 4 }));

      const fps = await watcher.waitFor(fresh(`${prefix}/machines/${hostname}/fps`), 10_000, 0, `the FPS of ${hostname}`);
      expect(fps.json).toMatchObject({ value: expect.any(Number) as number });
      const director = await watcher.waitFor((message) => message.topic === `${prefix}/director` && (message.json as { hostname: unknown }).hostname !== null, 10_000, 0, 'the director');
      expect(director.json).toMatchObject({ hostname, url: sim.mediaServer.url });
      // Only the machine the session lists: no topics under the address the bridge was given.
      expect(watcher.messages.filter((message) => message.topic.startsWith(`${prefix}/machines/`) && !message.topic.startsWith(`${prefix}/machines/${hostname}/`))).toEqual([]);
    });
  }
});
