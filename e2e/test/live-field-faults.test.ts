import { describe, expect, it } from 'vitest';
import { livePresets, MediaServer, type LinkStatus, type LiveRequest } from '@stagelink/core';
import { startSimulator } from '@stagelink/simulator';
import { watchLive } from './support/live-watch.js';
import { control, eventually } from './support/simulator.js';

/**
 * The live stream against a director that goes quiet, in the r34 dialect and with core's default timings: what
 * venues report on shipping builds (docs/api-notes.md, "Live update"). Each case runs its own simulator, side by
 * side, since each waits out the timings; they run once, in the suite's r34 run.
 */
const STALE_WITHIN_MS = 25_000;
const CASE_TIMEOUT_MS = 90_000;

async function director() {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 7, dialect: 'r34' });
  const ms = new MediaServer({ host: sim.mediaServer.url });
  const link: LinkStatus[] = [];
  ms.live.on('status', (status) => link.push(status));
  return {
    ms,
    link,
    control: (action: Parameters<typeof control>[1]) => control(sim.mediaServer.url, action),
    liveStats: async () => (await control(sim.mediaServer.url, { action: 'status' })).live,
    watch: (request: LiveRequest) => watchLive(ms, request),
    close: async () => {
      await ms.close();
      await sim.close();
    },
  };
}

describe.runIf(process.env.STAGELINK_SIM_DIALECT === 'r34').concurrent('a live subscription on a director that goes quiet', () => {
  it('is reported stale while its values stopped, live again when they come back, on one server subscription', async () => {
    const session = await director();
    try {
      const fps = session.watch(livePresets.localFps());
      const cpu = session.watch(livePresets.cpu());
      await eventually(() => fps.values.length > 0 && cpu.values.length > 0, 'both values flow');
      await session.control({ action: 'silentLive', pattern: 'findLocalMonitor("fps")', on: true });

      await eventually(() => fps.statuses.at(-1) === 'stale', 'the FPS subscription is reported stale', STALE_WITHIN_MS);
      expect(fps.subscription.status).toBe('stale');
      expect(cpu.statuses.at(-1)).toBe('online');
      expect(session.link).not.toContain('offline');

      const seen = fps.values.length;
      await session.control({ action: 'silentLive', pattern: 'findLocalMonitor("fps")', on: false });
      await eventually(() => fps.statuses.at(-1) === 'online', 'the FPS subscription is live again', STALE_WITHIN_MS);
      expect(fps.values.length).toBeGreaterThan(seen);
      // Every probe unsubscribed before it subscribed again: one server subscription per value.
      await eventually(async () => (await session.liveStats()).subscriptions === 2, 'two server subscriptions');
      expect(await session.liveStats()).toMatchObject({ sockets: 1 });
    } finally {
      await session.close();
    }
  }, CASE_TIMEOUT_MS);

  it('never reports a value that is sent only when it changes and does not change for 30 s', async () => {
    const session = await director();
    try {
      await session.control({ action: 'liveOnChangeOnly', on: true });
      const brightness = session.watch({ object: 'transportManager:default', properties: ['object.brightness'], updateFrequencyMs: 100 });
      await eventually(() => brightness.values.length > 0, 'the brightness arrives');
      // Probed every few seconds meanwhile: the director never holds more than the one subscription.
      let mostSubscriptions = 0;
      for (const end = performance.now() + 30_000; performance.now() < end; await new Promise((resolve) => setTimeout(resolve, 500))) {
        mostSubscriptions = Math.max(mostSubscriptions, (await session.liveStats()).subscriptions);
      }
      expect(brightness.statuses).toEqual(['connecting', 'online']);
      expect(mostSubscriptions).toBe(1);
    } finally {
      await session.close();
    }
  }, CASE_TIMEOUT_MS);

  it('applies a late refusal to the subscription it names, not to the one asked after it', async () => {
    const session = await director();
    try {
      await session.control({ action: 'lateLiveAnswers', ms: 400 });
      const missing = session.watch({ object: 'subsystem:MonitoringManager.findRemoteMonitor("NOSUCHMONITOR:d3", "fps")', properties: ['object.seriesAverage("Actual", 1)'] });
      const fps = session.watch(livePresets.localFps());
      await eventually(() => fps.values.length > 0 && missing.errors.length > 0, 'the FPS value and the refusal');
      expect(fps.errors).toEqual([]);
      expect(missing.errors[0]?.message).toContain('NOSUCHMONITOR');
      expect(fps.statuses.at(-1)).toBe('online');
    } finally {
      await session.close();
    }
  }, CASE_TIMEOUT_MS);
});

/**
 * A director that starts up accepts the TCP connection and never answers the WebSocket upgrade; the sockets it
 * held stay unanswered after it has started. In both dialects (the suite's spec and r34 runs).
 */
describe('a live subscription made while the director starts', () => {
  const HOLD_MS = 2500;

  it('times the held handshake out, tries again and comes online with values once upgrades are answered', async () => {
    const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 7 });
    const ms = new MediaServer({ host: sim.mediaServer.url, live: { connectTimeoutMs: 1000 } });
    try {
      await control(sim.mediaServer.url, { action: 'holdUpgrades', ms: HOLD_MS });
      const fps = watchLive(ms, livePresets.localFps());
      await eventually(() => fps.values.length > 0 && fps.subscription.status === 'online', 'FPS values once the hold ends', 20_000);
      const { live } = await control(sim.mediaServer.url, { action: 'status' });
      // The first upgrade was held for good: without its own handshake timeout the client would still wait on it.
      expect(live.upgradeAttempts).toBeGreaterThanOrEqual(2);
      expect(live.faults.holdUpgradesMs).toBe(0);
      expect(live.sockets).toBe(1);
      // Not online while held (offline after the timed-out try), then online once.
      expect(fps.statuses[0]).toBe('connecting');
      expect(fps.statuses.filter((status) => status === 'online')).toEqual(['online']);
      expect(fps.statuses.at(-1)).toBe('online');
      expect(fps.errors).toEqual([]);
    } finally {
      await ms.close();
      await sim.close();
    }
  }, 30_000);
});
