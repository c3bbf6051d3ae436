import { simControl, type ControlRequest } from '@stagelink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../src/index.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { Tally } from './support/tally.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/stale';
/** Core's default timings report a quiet subscription stale, and live again, well within this. */
const STALE_BOUND_MS = 25_000;
const tally = new Tally();

describe.skipIf(MOSQUITTO_MISSING)('stale marks while the link stays up, on a real Mosquitto', () => {
  let venue: TestVenue;
  let bridge: Bridge;
  let watcher: Watcher;

  beforeAll(async () => {
    venue = await startVenue();
    watcher = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`]);
    bridge = await venue.startBridge(PREFIX);
    for (const { hostname } of venue.session.sim.machines()) await watcher.waitFor(fresh(`machines/${hostname}/fps`), 10_000, 0, `FPS of ${hostname}`);
    await watcher.waitFor(fresh('transports/main/state'), 5000, 0, 'the main transport');
    await watcher.waitFor(fresh('session/health'), 5000, 0, 'session health');
  });

  afterAll(async () => {
    await bridge?.close();
    await watcher?.close();
    await venue?.close();
    if (tally.rows.length > 0) console.log(`bridge stale marks:\n${tally.table()}`);
  });

  const on = (suffix: string) => (message: Received) => message.topic === `${PREFIX}/${suffix}`;
  const marked = (message: Received): boolean => (message.json as { stale?: boolean }).stale === true;
  const fresh = (suffix: string) => (message: Received) => on(suffix)(message) && !marked(message);
  const stale = (suffix: string, reason: string) => (message: Received) => on(suffix)(message) && marked(message) && (message.json as { reason?: string }).reason === reason;
  /** Faults go to the director: it holds the bridge's live socket and answers its polls. */
  const director = () => venue.session.sim.machines().find((machine) => machine.role === 'director');
  const control = (action: ControlRequest) => simControl(venue.session.sim.mediaServer.url, action);
  /** Nothing since `since` said the bridge or the director went away. */
  const expectNoOffline = (since: number, directing: string) => {
    const later = watcher.messages.slice(since);
    expect(later.filter((message) => on('bridge')(message) && message.json !== 'online')).toEqual([]);
    expect(later.filter((message) => on('director')(message) && (message.json as { hostname?: string }).hostname !== directing)).toEqual([]);
  };

  it("marks one machine's FPS stale when its values stop while the stream stays up, keeps the others live, and clears the mark with the next value", () =>
    tally.countCase('one subscription silent (silentLive)', async () => {
      const directing = director()?.hostname as string;
      const [quiet, other] = venue.session.sim.machines().filter((machine) => machine.role !== 'director').map((machine) => machine.hostname) as [string, string];
      // That machine's remote FPS monitor only, in either dialect's node name (`<HOSTNAME>:d3` or `<hostname>:svc`).
      const pattern = `findRemoteMonitor("${quiet}:`;
      const since = watcher.messages.length;
      await control({ action: 'silentLive', pattern, on: true });
      try {
        const mark = await watcher.waitFor(stale(`machines/${quiet}/fps`, 'values stopped'), STALE_BOUND_MS, since, `FPS of ${quiet} marked stale`);
        expect(mark.json).toMatchObject({ value: expect.any(Number) as number, alert: expect.any(String) as string });
        // The other machine's FPS keeps coming, unmarked, after the quiet one was marked.
        await watcher.waitFor(fresh(`machines/${other}/fps`), 5000, watcher.messages.indexOf(mark) + 1, `FPS of ${other} still live`);
        expect(watcher.messages.slice(since).filter((message) => on(`machines/${other}/fps`)(message) && marked(message))).toEqual([]);
        expect(watcher.messages.slice(since).filter((message) => on(`machines/${quiet}/takeover`)(message) && marked(message))).toEqual([]);
        expectNoOffline(since, directing);

        // Retained: a consumer that joins now is told the value is stale.
        const late = await Watcher.connect(venue.broker.url, [`${PREFIX}/machines/${quiet}/fps`]);
        try {
          const told = await late.waitFor(on(`machines/${quiet}/fps`), 3000, 0, 'the retained FPS');
          expect(told.retain).toBe(true);
          expect(told.json).toMatchObject({ stale: true, reason: 'values stopped' });
        } finally {
          await late.close();
        }
      } finally {
        await control({ action: 'silentLive', pattern, on: false });
      }
      const back = watcher.messages.length;
      const cleared = await watcher.waitFor(fresh(`machines/${quiet}/fps`), STALE_BOUND_MS, back, `FPS of ${quiet} live again`);
      expect(cleared.json).not.toHaveProperty('reason');
      expectNoOffline(since, directing);
    }),
  60_000);

  it('marks what a stalled answer carries stale for large answers (MTU?), not offline, while small reads stay live', () =>
    tally.countCase('transports answer stalls (stallBody)', async () => {
      const directing = director()?.hostname as string;
      const path = '/api/session/transport/transports';
      const since = watcher.messages.length;
      await control({ action: 'stallBody', path, on: true });
      try {
        await watcher.waitFor(stale('transports/main/state', 'large answers fail (MTU?)'), 10_000, since, 'transport state marked stale for large answers');
        // Health and session still answer: their topics go on fresh, and nobody is told the session is away.
        expect(watcher.last(`${PREFIX}/session/health`)?.json).not.toHaveProperty('stale');
        expect(watcher.messages.slice(since).filter((message) => (on('session/health')(message) || on(`machines/${directing}/health`)(message)) && marked(message))).toEqual([]);
        expectNoOffline(since, directing);
      } finally {
        await control({ action: 'stallBody', path, on: false });
      }
      const back = watcher.messages.length;
      const cleared = await watcher.waitFor(fresh('transports/main/state'), 10_000, back, 'transport state fresh again');
      expect(cleared.json).not.toHaveProperty('reason');
    }),
  30_000);
});
