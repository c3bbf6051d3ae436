import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge, BridgeLog } from '../src/index.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/restart';
/** Restarts in a row; `STAGELINK_RESTART_RUNS=20` for the long check. */
const RUNS = Number(process.env.STAGELINK_RESTART_RUNS ?? 6);
/** "Within a few seconds of the reconnect": everything retained is republished at once on connect. */
const BACK_WITHIN_MS = 3000;

describe.skipIf(MOSQUITTO_MISSING)('a broker that restarts without persistence, on a real Mosquitto', () => {
  let venue: TestVenue;
  let bridge: Bridge;
  const reconnects: number[] = [];
  const log: BridgeLog = {
    info: (event) => {
      if (event === 'broker reconnected') reconnects.push(Date.now());
    },
    warn: () => undefined,
    error: () => undefined,
  };

  beforeAll(async () => {
    venue = await startVenue();
    bridge = await venue.startBridge(PREFIX, { log });
  });

  afterAll(async () => {
    await bridge?.close();
    await venue?.close();
  });

  /** The topics a consumer joining now reads retained under the prefix. */
  async function retainedNow(): Promise<Set<string>> {
    const late = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`]);
    await delay(300);
    await late.close();
    return new Set(late.messages.filter((message) => message.retain && message.json !== '').map((message) => message.topic));
  }

  it(`has every retained topic back within ${BACK_WITHIN_MS} ms of each reconnect (${RUNS} restarts in a row)`, async () => {
    const expected = [
      'bridge',
      'director',
      'session/health',
      'summary',
      ...['main', 'side screens', 'lobby'].flatMap((name) => [`transports/${name}/state`, `transports/${name}/clock`]),
      ...venue.session.sim.machines().flatMap(({ hostname }) => ['health', 'fps', 'takeover'].map((part) => `machines/${hostname}/${part}`)),
    ].map((suffix) => `${PREFIX}/${suffix}`);
    const deadline = Date.now() + 15_000;
    let first = new Set<string>();
    while (expected.some((topic) => !first.has(topic)) && Date.now() < deadline) first = await retainedNow();
    expect(expected.filter((topic) => !first.has(topic))).toEqual([]);

    for (let run = 0; run < RUNS; run++) {
      await venue.broker.stop();
      await delay(300 + (run % 3) * 400);
      const before = reconnects.length;
      await venue.broker.start();
      await expect.poll(() => reconnects.length, { timeout: 20_000, interval: 20 }).toBeGreaterThan(before);
      const reconnectedAt = reconnects.at(-1) as number;
      let missing: string[] = expected;
      while (missing.length > 0 && Date.now() - reconnectedAt < BACK_WITHIN_MS) {
        const retained = await retainedNow();
        missing = expected.filter((topic) => !retained.has(topic));
      }
      expect(missing, `run ${run + 1}: missing ${Date.now() - reconnectedAt} ms after the reconnect`).toEqual([]);
    }
  }, 180_000);
});
