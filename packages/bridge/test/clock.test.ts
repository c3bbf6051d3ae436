import { simControl, type ControlRequest } from '@stagelink/simulator';
import { setTimeout as delay } from 'node:timers/promises';
import type { ShowClockSnapshot } from '@stagelink/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../src/index.js';
import { DashboardSummary, type SummaryPayload } from '../src/summary.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { clockPayload, type ClockPayload } from '../src/transport-clocks.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/clock';
const FPS_HZ = 4;
/** Core's defaults call a playhead standing still while playing stale after 5 s; the subscription's probe follows. */
const STALE_BOUND_MS = 25_000;
/** Every live transport object, in either dialect's naming: what `silentLive` quiets to freeze the playheads. */
const TRANSPORT_OBJECTS = 'transportmanager';
/** The session's transports, as their topics name them. */
const TRANSPORTS = ['main', 'side screens', 'lobby'];

describe('clock payloads', () => {
  const snapshot = (status: ShowClockSnapshot['status']): ShowClockSnapshot => ({
    transport: { uid: '1', name: 'side/screens' },
    status,
    playmode: 'Play',
    playing: true,
    time: 12.5,
    track: { uid: '2', name: 'Intro', length: 180 },
    trackRemaining: 167.5,
    volume: 1,
    brightness: 1,
    engaged: true,
  });

  it('publishes a live clock as core gives it, and marks one that is not live with why', () => {
    expect(clockPayload(snapshot('online'))).toEqual(snapshot('online'));
    expect(clockPayload(snapshot('stale'))).toEqual({ ...snapshot('stale'), stale: true, reason: 'values stopped' });
    expect(clockPayload(snapshot('offline'))).toEqual({ ...snapshot('offline'), stale: true, reason: 'no link' });
  });

  it('adds the clocks to the summary keyed as their topics are, and leaves the key out until there is one', () => {
    const sent: SummaryPayload[] = [];
    const summary = new DashboardSummary(0, (payload) => sent.push(payload));
    summary.health('A', { severity: 'ok' });
    expect(sent.at(-1)).toEqual({ machines: { A: { health: { severity: 'ok' } } } });
    summary.clock('side/screens', clockPayload(snapshot('stale')));
    expect(sent.at(-1)?.transports).toEqual({ side_screens: { ...snapshot('stale'), stale: true, reason: 'values stopped' } });
    summary.close();
  });
});

describe.skipIf(MOSQUITTO_MISSING)('transport clocks on a real Mosquitto', () => {
  let venue: TestVenue;
  let bridge: Bridge;
  let watcher: Watcher;

  beforeAll(async () => {
    venue = await startVenue();
    watcher = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`]);
    bridge = await venue.startBridge(PREFIX, { fpsHz: FPS_HZ });
    // The first snapshots may come before the track's length and annotations are read.
    await watcher.waitFor((message) => fresh('transports/main/clock')(message) && clockOf(message).track.length > 0, 10_000, 0, "main's clock with its track");
  });

  afterAll(async () => {
    await bridge?.close();
    await watcher?.close();
    await venue?.close();
  });

  const on = (suffix: string) => (message: Received) => message.topic === `${PREFIX}/${suffix}`;
  const marked = (message: Received): boolean => (message.json as { stale?: boolean }).stale === true;
  const fresh = (suffix: string) => (message: Received) => on(suffix)(message) && !marked(message);
  const stale = (suffix: string, reason: string) => (message: Received) => on(suffix)(message) && marked(message) && (message.json as { reason?: string }).reason === reason;
  const clockOf = (message: Received | undefined): ClockPayload => message?.json as ClockPayload;
  /** The director's own playhead of a transport: the truth a clock must show. */
  const truth = (name: string): number => venue.session.sim.state.transports.positionOf({ name }).time;
  /** Faults go to the director: it holds the bridge's live socket and answers its polls. */
  const control = (action: ControlRequest) => simControl(venue.session.sim.mediaServer.url, action);
  const send = async (command: string, body: Record<string, unknown>) => {
    const id = `clock-${command}-${Date.now()}`;
    const since = watcher.messages.length;
    await watcher.client.publishAsync(`${PREFIX}/cmd/${command}`, JSON.stringify({ ...body, id, sentAt: Date.now() }), { qos: 1 });
    return (await watcher.waitFor((message) => on('result')(message) && (message.json as { id: string }).id === id, 5000, since, `the result of ${command}`)).json;
  };

  it('publishes the clock of every transport it publishes the state of, retained, keyed as the state topics are', async () => {
    for (const name of TRANSPORTS) {
      const clock = await watcher.waitFor(fresh(`transports/${name}/clock`), 10_000, 0, `the clock of ${name}`);
      expect(clockOf(clock)).toMatchObject({ transport: { name }, status: 'online', playmode: expect.any(String) as string, time: expect.any(Number) as number });
      expect(watcher.last(`${PREFIX}/transports/${name}/state`)).toBeDefined();
    }
    const late = await Watcher.connect(venue.broker.url, [`${PREFIX}/transports/main/clock`]);
    try {
      const told = await late.waitFor(on('transports/main/clock'), 3000, 0, 'the retained clock');
      expect(told.retain).toBe(true);
      expect(clockOf(told)).toMatchObject({ transport: { name: 'main' }, track: { name: expect.any(String) as string } });
    } finally {
      await late.close();
    }
  });

  it(`follows the director's playhead while it plays, at most ${FPS_HZ} times a second`, async () => {
    expect(await send('transport/gototrack', { transport: 'main', track: 'Preshow', playmode: 'play' })).toMatchObject({ ok: true });
    await watcher.waitFor((message) => fresh('transports/main/clock')(message) && clockOf(message).playing, 5000, 0, "main's clock playing");
    // Sampled as each arrives: the snapshot's time against the director's playhead at that moment.
    for (let sample = 0, since = watcher.messages.length; sample < 5; sample++) {
      const message = await watcher.waitFor(on('transports/main/clock'), 3000, since, "main's next clock");
      expect(Math.abs(clockOf(message).time - truth('main'))).toBeLessThan(0.5);
      since = watcher.messages.indexOf(message) + 1;
    }
    const since = watcher.messages.length;
    await delay(2500);
    const window = watcher.messages.slice(since).filter(on('transports/main/clock'));
    // Counted over the window rather than gap by gap: a loaded machine's broker can hand two over close together.
    expect(window.length).toBeGreaterThanOrEqual(4);
    expect(window.length).toBeLessThanOrEqual(FPS_HZ * 2.5 + 1);
    const times = window.map((message) => clockOf(message).time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(clockOf(window.at(-1))).toMatchObject({ status: 'online', playmode: 'Play', track: { name: 'Preshow', length: 300 }, section: { index: 0 } });
    expect(clockOf(window.at(-1))).not.toHaveProperty('stale');
  });

  it("carries every transport's clock in the summary, as each clock topic last said it", async () => {
    const since = watcher.messages.length;
    await delay(1500);
    const summaries = watcher.messages.slice(since).filter(on('summary'));
    expect(summaries.length).toBeGreaterThan(1);
    for (const summary of summaries) {
      const { transports } = summary.json as SummaryPayload;
      expect(Object.keys(transports ?? {}).sort()).toEqual([...TRANSPORTS].sort());
      // The bridge publishes a clock topic before the summary it changes, and the broker keeps one publisher's order.
      const before = watcher.messages.slice(0, watcher.messages.indexOf(summary));
      for (const name of TRANSPORTS) expect(transports?.[name]).toEqual(before.findLast(on(`transports/${name}/clock`))?.json);
    }
  });

  it('keeps the clocks live while the transports read stalls: the state topics are marked, the clocks are not', async () => {
    const path = '/api/session/transport/transports';
    expect(await send('transport/play', { transport: 'main' })).toMatchObject({ ok: true });
    await watcher.waitFor((message) => fresh('transports/main/clock')(message) && clockOf(message).playing, 5000, 0, "main's clock playing");
    const since = watcher.messages.length;
    await control({ action: 'stallBody', path, on: true });
    try {
      await watcher.waitFor((message) => on('transports/main/state')(message) && marked(message), 10_000, since, 'the state marked stale');
      await watcher.waitFor(fresh('transports/main/clock'), 3000, watcher.messages.length, "main's clock going on");
    } finally {
      await control({ action: 'stallBody', path, on: false });
    }
    // What a failed read marks its topics with: never a clock's words.
    const readReasons = ['large answers fail (MTU?)', 'read failed'];
    const marks = watcher.messages.slice(since).filter((message) => message.topic.endsWith('/clock') && readReasons.includes((message.json as { reason?: string }).reason ?? ''));
    expect(marks.map((message) => `${message.topic}: ${(message.json as { reason?: string }).reason}`)).toEqual([]);
  });

  it('marks a clock whose playhead stands still while playing stale (values stopped), holding its time, on its topic and in the summary, and clears it', async () => {
    await watcher.waitFor((message) => fresh('transports/main/clock')(message) && clockOf(message).playing, 5000, 0, "main's clock playing");
    const since = watcher.messages.length;
    await control({ action: 'silentLive', pattern: TRANSPORT_OBJECTS, on: true });
    let mark: Received;
    try {
      mark = await watcher.waitFor(stale('transports/main/clock', 'values stopped'), STALE_BOUND_MS, since, "main's clock marked stale");
      expect(clockOf(mark)).toMatchObject({ status: 'stale', playing: true, track: { name: 'Preshow' } });
      // Said at once, then held: nothing moves on the topic while the playhead cannot be seen.
      await delay(1000);
      const after = watcher.messages.slice(watcher.messages.indexOf(mark) + 1).filter(on('transports/main/clock'));
      expect(after.every((message) => marked(message) && clockOf(message).time === clockOf(mark).time)).toBe(true);
      expect(truth('main') - clockOf(mark).time).toBeGreaterThan(1);
      const summary = await watcher.waitFor((message) => on('summary')(message) && (message.json as SummaryPayload).transports?.['main']?.stale === true, 5000, since, 'the summary with main stale');
      expect((summary.json as SummaryPayload).transports?.['main']).toMatchObject({ stale: true, reason: 'values stopped', status: 'stale' });
      const late = await Watcher.connect(venue.broker.url, [`${PREFIX}/transports/main/clock`]);
      try {
        expect(clockOf(await late.waitFor(on('transports/main/clock'), 3000, 0, 'the retained clock'))).toMatchObject({ stale: true, reason: 'values stopped' });
      } finally {
        await late.close();
      }
    } finally {
      await control({ action: 'silentLive', pattern: TRANSPORT_OBJECTS, on: false });
    }
    const cleared = await watcher.waitFor(fresh('transports/main/clock'), STALE_BOUND_MS, watcher.messages.indexOf(mark) + 1, "main's clock live again");
    expect(clockOf(cleared)).not.toHaveProperty('reason');
    expect(clockOf(cleared).status).toBe('online');
    // The link stayed up: no clock said "no link".
    expect(watcher.messages.slice(since).filter((message) => message.topic.endsWith('/clock') && (message.json as { reason?: string }).reason === 'no link')).toEqual([]);
  }, 3 * STALE_BOUND_MS);

  it('marks every clock "no link" at once when the live stream drops, and clears the marks when it is back', async () => {
    const since = watcher.messages.length;
    await control({ action: 'refuseUpgrades', on: true });
    try {
      await control({ action: 'dropSockets' });
      for (const name of TRANSPORTS) {
        const mark = await watcher.waitFor(stale(`transports/${name}/clock`, 'no link'), 5000, since, `the clock of ${name} marked no link`);
        expect(clockOf(mark).status).toBe('offline');
      }
    } finally {
      await control({ action: 'refuseUpgrades', on: false });
    }
    const back = watcher.messages.length;
    for (const name of TRANSPORTS) await watcher.waitFor(fresh(`transports/${name}/clock`), 20_000, back, `the clock of ${name} live again`);
  }, 40_000);
});
