/**
 * The computer wakes from sleep: the built plugin reads every watched list again at once and reconnects its
 * live stream at once, instead of waiting for a poll interval, a request timeout or a missed ping; and its log
 * says which server that was about.
 */
import type { LogEntry, Simulator } from '@stagelink/simulator';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeStreamDeck, PLUGIN_DIR, PLUGIN_UUID } from '../harness/fake-stream-deck.js';
import { portOf, startSim } from './simulator.js';

const HEALTH = 'com.stagelink.mediaserver.health';
const FPS = 'com.stagelink.mediaserver.fps';
const HEALTH_PATH = '/api/session/status/health';
/** The plugin polls health every 3 s: a request within a second of the wake is the wake's. */
const HEALTH_INTERVAL_MS = 3000;

/**
 * The plugin folder with a logs/ of its own (the SDK writes the log to logs/ of its working directory), its
 * files linked to the built ones.
 */
function pluginCopy(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'stagelink-wake-')), `${PLUGIN_UUID}.sdPlugin`);
  mkdirSync(dir);
  for (const entry of readdirSync(PLUGIN_DIR)) if (entry !== 'logs') symlinkSync(join(PLUGIN_DIR, entry), join(dir, entry));
  return dir;
}

function readLog(dir: string): string {
  const logs = join(dir, 'logs');
  return readdirSync(logs)
    .map((file) => readFileSync(join(logs, file), 'utf8'))
    .join('\n');
}

describe('a system wake', () => {
  let deck: FakeStreamDeck;
  let sim: Simulator;
  let dir: string;
  const healthRequests: number[] = [];

  beforeEach(async () => {
    healthRequests.length = 0;
    sim = await startSim(0, (entry: LogEntry) => {
      if (entry.event === 'request' && String(entry.path).split('?')[0] === HEALTH_PATH) healthRequests.push(Date.now());
    });
    dir = pluginCopy();
    deck = await FakeStreamDeck.start();
    deck.globalSettings.host = sim.mediaServer.url;
    await deck.launch({ pluginDir: dir });
  });

  afterEach(async () => {
    await deck.close();
    await sim.close();
    rmSync(join(dir, '..'), { recursive: true, force: true });
  });

  it('polls at once and reconnects the live stream at once, and logs it for the server', async () => {
    deck.appear({ action: HEALTH, context: 'health', settings: {} });
    deck.appear({ action: FPS, context: 'fps', settings: {}, column: 1 });
    await expect.poll(() => sim.live.stats().sockets, { timeout: 8000 }).toBe(1);
    await expect.poll(() => healthRequests.length, { timeout: 8000 }).toBeGreaterThanOrEqual(1);
    // Wake shortly after a poll, so that the next poll of its own is still about 3 s away.
    const polls = healthRequests.length;
    await expect.poll(() => healthRequests.length, { timeout: HEALTH_INTERVAL_MS + 2000, interval: 20 }).toBeGreaterThan(polls);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = { polls: healthRequests.length, upgrades: sim.live.stats().upgradeAttempts };

    const wokeAt = Date.now();
    deck.systemWake();

    await expect.poll(() => healthRequests.length, { timeout: 1000, interval: 20 }).toBeGreaterThan(before.polls);
    expect((healthRequests[before.polls] ?? Infinity) - wokeAt).toBeLessThan(1000);
    // The healthy socket from before the sleep is replaced by a new one at once, and FPS keeps coming.
    await expect.poll(() => sim.live.stats().upgradeAttempts, { timeout: 1000, interval: 20 }).toBeGreaterThan(before.upgrades);
    await expect.poll(() => sim.live.stats(), { timeout: 5000 }).toMatchObject({ sockets: 1 });
    const frames = deck.images('fps').length;
    await deck.waitFor(() => deck.images('fps').length > frames, 'the FPS key painting again after the wake');

    const port = portOf(sim);
    await expect.poll(() => readLog(dir), { timeout: 3000 }).toMatch(new RegExp(`INFO\\s+server 127\\.0\\.0\\.1:${port}: After a sleep`));
  });
});
