import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { simControl } from '../src/index.js';
import { simulatorPerFile } from './support/simulator-per-file.js';
import { acknowledged, AVERAGE, CPU_AVERAGE, LOCAL_CPU, LOCAL_FPS, MAIN_BRIGHTNESS, openLiveSocket, pause, unsubscribed, until, type LiveSocket } from './support/live-socket.js';

/** The live-update faults venues report, switched on through the control endpoint, over real sockets. */

describe.each(['spec', 'r34'] as const)('live faults in the %s dialect', (dialect) => {
  const sim = simulatorPerFile({ dialect, port: 0, drivePort: 0 });
  const control = (request: { action: string; [key: string]: unknown }) => simControl(sim().mediaServer.url, request);
  const withLive = async (test: (live: LiveSocket) => Promise<void>) => {
    const live = await openLiveSocket(sim().mediaServer.url);
    try {
      await test(live);
    } finally {
      live.close();
    }
  };

  it('silentLive acknowledges a matching subscription but feeds it nothing, even subscribed again, until it is turned off', () =>
    withLive(async (live) => {
      const summary = await control({ action: 'silentLive', pattern: 'FPS', on: true });
      expect(summary.live.faults.silentLive).toEqual([{ pattern: 'FPS', afterValues: 0 }]);
      const cpu = await acknowledged(live, LOCAL_CPU, CPU_AVERAGE);
      const first = await acknowledged(live, LOCAL_FPS, AVERAGE);
      await unsubscribed(live, first);
      const again = await acknowledged(live, LOCAL_FPS, AVERAGE);
      await pause(2000);
      expect(live.valuesOf(first)).toEqual([]);
      expect(live.valuesOf(again)).toEqual([]);
      expect(live.valuesOf(cpu).length).toBeGreaterThan(1);

      await control({ action: 'silentLive', pattern: 'fps', on: false });
      await until(() => live.valuesOf(again).length > 0, 'an FPS value once the silence ends');
    }));

  it('silentLive with a property silences that property of the object and feeds its others', () =>
    withLive(async (live) => {
      const summary = await control({ action: 'silentLive', pattern: 'transportmanager:main', property: 'TCSTATUSSTRING', on: true });
      expect(summary.live.faults.silentLive).toEqual([{ pattern: 'transportmanager:main', property: 'TCSTATUSSTRING', afterValues: 0 }]);
      const timecode = await acknowledged(live, MAIN_BRIGHTNESS[0], 'str(object.tcStatusString)');
      const brightness = await acknowledged(live, ...MAIN_BRIGHTNESS);
      await until(() => live.valuesOf(brightness).length > 0, 'a brightness value');
      await pause(1000);
      expect(live.valuesOf(timecode)).toEqual([]);

      await control({ action: 'silentLive', pattern: 'transportmanager:main', property: 'tcStatusString', on: false });
      await until(() => live.valuesOf(timecode).length > 0, 'a timecode status once the silence ends');
    }));

  it('silentLive with afterValues feeds that many values of the pair, then none', () =>
    withLive(async (live) => {
      await control({ action: 'silentLive', pattern: 'findLocalMonitor("fps")', on: true, afterValues: 3 });
      const fps = await acknowledged(live, LOCAL_FPS, AVERAGE);
      await until(() => live.valuesOf(fps).length === 3, 'three FPS values');
      await pause(2000);
      expect(live.valuesOf(fps)).toHaveLength(3);
    }));

  it('counts every frame it sends, lists and values, and reset starts the count again', () =>
    withLive(async (live) => {
      const before = (await control({ action: 'status' })).live.framesSent;
      const fps = await acknowledged(live, LOCAL_FPS, AVERAGE);
      await until(() => live.valuesOf(fps).length >= 3, 'three FPS values');
      await control({ action: 'pause', on: true });
      await pause(300);
      expect((await control({ action: 'status' })).live.framesSent - before).toBe(live.arrivals.length);
      expect((await control({ action: 'reset' })).live.framesSent).toBe(0);
    }));

  it('loseLiveFrames loses every client frame, answering each "Invalid JSON", counts them, and takes frames again when off', () =>
    withLive(async (live) => {
      const before = (await control({ action: 'loseLiveFrames', on: true })).live;
      expect(before.faults.loseFrames).toBe(true);
      live.subscribe(LOCAL_FPS, AVERAGE);
      await until(() => live.errors().length === 1, 'the answer to the subscribe');
      live.socket.send(JSON.stringify({ set: [{ id: 0, value: 1 }] }));
      await until(() => live.errors().length === 2, 'the answer to the write');
      expect(live.errors().map(({ frame }) => frame['error'])).toEqual(['Invalid JSON', 'Invalid JSON']);
      expect(live.listing(LOCAL_FPS, AVERAGE)).toBeUndefined();
      const status = (await control({ action: 'status' })).live;
      expect(status.framesReceived - before.framesReceived).toBe(2);
      expect(status.subscriptions).toBe(0);

      await control({ action: 'loseLiveFrames', on: false });
      await pause(50);
      await acknowledged(live, LOCAL_FPS, AVERAGE);
      expect((await control({ action: 'reset' })).live).toMatchObject({ framesReceived: 0, faults: { loseFrames: false } });
    }));

  it('silentLive refuses a missing or empty pattern with 400', async () => {
    await expect(control({ action: 'silentLive', on: true })).rejects.toThrow(/answered 400: pattern is missing/);
    await expect(control({ action: 'silentLive', pattern: '', on: true })).rejects.toThrow(/answered 400: pattern must name/);
    await expect(control({ action: 'silentLive', pattern: 'fps', on: true, afterValues: -1 })).rejects.toThrow(/afterValues must be a whole number/);
    await expect(control({ action: 'silentLive', pattern: 'main', property: '', on: true })).rejects.toThrow(/answered 400: property, when given, must name/);
  });

  it('lateLiveAnswers sends lists and errors late and in order, a subscribe\'s value after its list, other values on time', () =>
    withLive(async (live) => {
      const cpu = await acknowledged(live, LOCAL_CPU, CPU_AVERAGE);
      const summary = await control({ action: 'lateLiveAnswers', ms: 2000 });
      expect(summary.live.faults.lateAnswersMs).toBe(2000);
      const sent = performance.now();
      live.subscribe(`${LOCAL_FPS}.missing`, AVERAGE);
      // Unanswered, the next frame waits 250 ms, as a paced client does (r34 loses a frame sent right behind another).
      await pause(250);
      live.subscribe(LOCAL_FPS, AVERAGE);
      await until(() => live.listing(LOCAL_FPS, AVERAGE) !== undefined, 'the late list', 10_000);
      const listing = live.listing(LOCAL_FPS, AVERAGE);
      const error = live.errors()[0];
      expect(listing && error).toBeTruthy();
      if (!listing || !error) return;
      expect(listing.arrival.at - sent).toBeGreaterThanOrEqual(1900);
      expect(live.arrivals.indexOf(error)).toBeLessThan(live.arrivals.indexOf(listing.arrival));
      expect(String(error.frame['error'])).toMatch(/^Unable to subscribe to /);
      const cpuValuesMeanwhile = live.valuesOf(cpu).filter(({ arrival }) => arrival.at > sent && arrival.at < listing.arrival.at);
      expect(cpuValuesMeanwhile.length).toBeGreaterThan(1);
      await until(() => live.valuesOf(listing.id).length > 0, 'the FPS value');
      expect(live.arrivals.indexOf(live.valuesOf(listing.id)[0]?.arrival ?? listing.arrival)).toBeGreaterThan(live.arrivals.indexOf(listing.arrival));

      await control({ action: 'lateLiveAnswers', ms: 0 });
      const onTime = performance.now();
      await acknowledged(live, 'subsystem:MonitoringManager.findLocalMonitor("GPUProfiler")', 'object.seriesAverage("Total", 1)');
      expect(performance.now() - onTime).toBeLessThan(2000);
    }));

  it('sends an unchanging value once by default, at every interval when liveOnChangeOnly is off, and once again when it is on', () =>
    withLive(async (live) => {
      expect((await control({ action: 'status' })).live.faults.onChangeOnly).toBe(true);
      const brightness = await acknowledged(live, ...MAIN_BRIGHTNESS);
      await pause(1000);
      expect(live.valuesOf(brightness)).toHaveLength(1);

      await control({ action: 'liveOnChangeOnly', on: false });
      await until(() => live.valuesOf(brightness).length >= 6, 'the same brightness sent again and again');
      expect(new Set(live.valuesOf(brightness).map(({ value }) => value)).size).toBe(1);

      await control({ action: 'liveOnChangeOnly', on: true });
      await pause(200);
      const sent = live.valuesOf(brightness).length;
      await pause(1000);
      expect(live.valuesOf(brightness)).toHaveLength(sent);
    }));

  it('holdUpgrades leaves upgrades unanswered for its window, never answers those, and answers upgrades after it', async () => {
    const url = `${sim().mediaServer.url.replace('http', 'ws')}/api/session/liveupdate`;
    const attemptsBefore = (await control({ action: 'status' })).live.upgradeAttempts;
    const summary = await control({ action: 'holdUpgrades', ms: 1500 });
    expect(summary.live.faults.holdUpgradesMs).toBeGreaterThan(0);
    const held = new WebSocket(url);
    const timedOut = new WebSocket(url, { handshakeTimeout: 300 });
    await expect(new Promise((resolve, reject) => timedOut.once('open', resolve).once('error', reject))).rejects.toThrow(/Opening handshake has timed out/);
    try {
      await until(() => sim().live.faults.holdUpgradesMs === 0, 'the end of the hold', 3000);
      const live = await openLiveSocket(sim().mediaServer.url);
      live.close();
      // A socket held while the server started stays unanswered: only a client's own timeout ends it.
      expect(held.readyState).toBe(WebSocket.CONNECTING);
      expect((await control({ action: 'status' })).live.upgradeAttempts).toBe(attemptsBefore + 3);
    } finally {
      held.once('error', () => undefined); // terminating a socket still connecting reports an error
      held.terminate();
    }
  });

  it('holdUpgrades with ms 0 ends a hold, and refuses a hold that is not a whole number of ms', async () => {
    await control({ action: 'holdUpgrades', ms: 60_000 });
    expect((await control({ action: 'holdUpgrades', ms: 0 })).live.faults.holdUpgradesMs).toBe(0);
    (await openLiveSocket(sim().mediaServer.url)).close();
    await expect(control({ action: 'holdUpgrades', ms: 1.5 })).rejects.toThrow(/answered 400: ms must be a whole number from 0 to 60000/);
  });

  it('reset clears the live faults', async () => {
    await control({ action: 'silentLive', pattern: 'fps', on: true });
    await control({ action: 'lateLiveAnswers', ms: 500 });
    await control({ action: 'liveOnChangeOnly', on: false });
    await control({ action: 'holdUpgrades', ms: 60_000 });
    await control({ action: 'backToBack', ms: 500 });
    const { live } = await control({ action: 'reset' });
    expect(live.faults).toMatchObject({ silentLive: [], lateAnswersMs: 0, onChangeOnly: true, holdUpgradesMs: 0, backToBackMs: dialect === 'r34' ? 20 : 0 });
  });
});
