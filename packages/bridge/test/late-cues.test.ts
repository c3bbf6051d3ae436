import { MediaServer } from '@stagelink/core';
import { simControl } from '@stagelink/simulator';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../src/index.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { Tally } from './support/tally.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/late';
const MAX_COMMAND_AGE_MS = 2000;
/** Longer than a cue's whole deadline: its answer comes after the bridge stopped waiting for it. */
const ANSWER_LATE_MS = MAX_COMMAND_AGE_MS + 1500;
const tally = new Tally();

describe.skipIf(MOSQUITTO_MISSING)('cues whose answer comes late, through a real Mosquitto', () => {
  let venue: TestVenue;
  let bridge: Bridge;
  let desk: Watcher;
  let reader: MediaServer;

  beforeAll(async () => {
    venue = await startVenue();
    reader = new MediaServer({ host: venue.session.sim.mediaServer.url, hosts: venue.session.hosts });
    desk = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`]);
    // Polled every 500 ms, so the bridge's reading of the transports from before a cue is always recent enough to judge by.
    bridge = await venue.startBridge(PREFIX, { followDirector: false, pollIntervalMs: 500, maxCommandAgeMs: MAX_COMMAND_AGE_MS });
    await desk.waitFor(on('transports/main/state'), 10_000, 0, 'the main transport');
  });

  afterAll(async () => {
    await bridge?.close();
    await reader?.close();
    await desk?.close();
    await venue?.close();
    if (tally.rows.length > 0) console.log(`bridge late cues:\n${tally.table()}`);
  });

  function on(suffix: string) {
    return (message: Received) => message.topic === `${PREFIX}/${suffix}`;
  }
  const control = (path: string, ms: number) => simControl(venue.session.sim.mediaServer.url, { action: 'slowAnswer', ms, path });
  /** Cues that reached the director, counted as they arrive: one the bridge stopped waiting for included. */
  const arrived = (command: string) => venue.session.sim.arrivals.count('POST', `/api/session/transport/${command}`);
  /** Once since `before`, and still once after the late answer came and a while after it: never resent. */
  async function expectSentOnce(before: number, command: string): Promise<void> {
    expect(arrived(command) - before).toBe(1);
    await delay(ANSWER_LATE_MS);
    expect(arrived(command) - before).toBe(1);
  }

  /** Publishes a timed cue as a desk would, answers its result from `<prefix>/result`. */
  async function cue(command: string, body: Record<string, unknown>): Promise<unknown> {
    const id = `${command}-${Date.now()}`;
    const since = desk.messages.length;
    await desk.client.publishAsync(`${PREFIX}/cmd/transport/${command}`, JSON.stringify({ ...body, id, sentAt: Date.now() }), { qos: 1 });
    const result = await desk.waitFor((message) => on('result')(message) && (message.json as { id?: string }).id === id, 10_000, since, `the result of ${command}`);
    return result.json;
  }

  it('answers a late gototrack that landed with ok false, its code and outcome "landed", having sent it once', () =>
    tally.countCase('gototrack answered late (landed)', async () => {
      const current = (await reader.transport.transports()).transports.find((transport) => transport.name === 'main')?.currentTrack.name;
      const other = (await reader.transport.tracks()).find((track) => track.name !== current)?.name;
      expect(other).toBeDefined();
      await desk.waitFor((message) => on('transports/main/state')(message) && (message.json as { track?: string }).track === current, 5000, 0, 'the track before the cue');
      const before = arrived('gototrack');
      await control('/api/session/transport/gototrack', ANSWER_LATE_MS);
      try {
        const result = await cue('gototrack', { transport: 'main', track: other, playmode: 'play' });
        expect(result).toMatchObject({ ok: false, code: 'STAGELINK_ERR_LATE_LANDED', outcome: 'landed', error: expect.any(String) as string });
      } finally {
        await control('/api/session/transport/gototrack', 0);
      }
      await expectSentOnce(before, 'gototrack');
      await desk.waitFor((message) => on('transports/main/state')(message) && (message.json as { track?: string }).track === other, 5000, 0, 'the track the cue asked for');
    }),
  30_000);

  it('answers a late play on a transport that was already playing with outcome "unknown", having sent it once', () =>
    tally.countCase('play answered late (unknown)', async () => {
      await reader.transport.play({ name: 'main' });
      await desk.waitFor((message) => on('transports/main/state')(message) && (message.json as { playing?: boolean }).playing === true, 5000, 0, 'main playing');
      const before = arrived('play');
      await control('/api/session/transport/play', ANSWER_LATE_MS);
      try {
        const result = await cue('play', { transport: 'main' });
        expect(result).toMatchObject({ ok: false, code: 'STAGELINK_ERR_LATE_UNKNOWN', outcome: 'unknown' });
      } finally {
        await control('/api/session/transport/play', 0);
      }
      await expectSentOnce(before, 'play');
    }),
  30_000);
});
