/**
 * The computer wakes from sleep: the built plugin reads every watched list again at once and reconnects its
 * live stream at once, instead of waiting for a poll interval, a request timeout or a missed ping; and its log
 * says which server that was about. "At once" is shown by what comes first, not by the clock: the new question
 * reaches the server before the one still out could have timed out, and a healthy socket is replaced. How soon
 * is measured by `pnpm bench` (desk-latency).
 */
import type { Simulator } from '@stagelink/simulator';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeStreamDeck, pluginFolderOfItsOwn } from '../harness/fake-stream-deck.js';
import { control, portOf, startSim } from './simulator.js';

const HEALTH = 'com.stagelink.mediaserver.health';
const FPS = 'com.stagelink.mediaserver.fps';
const HEALTH_PATH = '/api/session/status/health';

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
  /**
   * Health questions as they reach the server (before any answer): whether their answer is held back, and
   * whether the key had shown NO LINK by then.
   */
  const healthAsked: { held: boolean; noLinkShown: boolean }[] = [];

  beforeEach(async () => {
    healthAsked.length = 0;
    sim = await startSim(0);
    const state = sim.state;
    const health = state.health.bind(state);
    state.health = () => {
      healthAsked.push({ held: sim.faults.slowAnswers.summary !== null, noLinkShown: deck.images('health').some((svg) => svg.includes('NO LINK')) });
      return health();
    };
    dir = pluginFolderOfItsOwn();
    deck = await FakeStreamDeck.start();
    deck.globalSettings.host = sim.mediaServer.url;
    await deck.launch({ pluginDir: dir });
  });

  afterEach(async () => {
    await deck.close();
    await sim.close();
    rmSync(join(dir, '..'), { recursive: true, force: true });
  });

  it('asks again at once and reconnects the live stream at once, and logs it for the server', async () => {
    deck.appear({ action: HEALTH, context: 'health', settings: {} });
    deck.appear({ action: FPS, context: 'fps', settings: {}, column: 1 });
    await expect.poll(() => sim.live.stats().sockets, { timeout: 8000 }).toBe(1);
    await expect.poll(() => healthAsked.length, { timeout: 8000 }).toBeGreaterThanOrEqual(1);
    // As after a sleep, a question is out that will not be answered: left alone, the plugin asks again only
    // once it has timed out, and the key shows NO LINK first.
    await control(sim, { action: 'slowAnswer', ms: 60_000, path: HEALTH_PATH });
    await expect.poll(() => healthAsked.at(-1)?.held, { timeout: 8000, interval: 20 }).toBe(true);
    const asked = healthAsked.length;
    expect(healthAsked.at(-1)?.noLinkShown).toBe(false);
    const upgrades = sim.live.stats().upgradeAttempts;

    deck.systemWake();

    await expect.poll(() => healthAsked.length, { timeout: 8000, interval: 20 }).toBe(asked + 1);
    expect(healthAsked.at(-1), 'the question after the wake, asked before the one out could time out').toEqual({ held: true, noLinkShown: false });
    // The healthy socket from before the sleep is replaced by a new one (nothing else would replace it), and
    // FPS keeps coming.
    await expect.poll(() => sim.live.stats().upgradeAttempts, { timeout: 8000 }).toBeGreaterThan(upgrades);
    await expect.poll(() => sim.live.stats(), { timeout: 5000 }).toMatchObject({ sockets: 1 });
    const frames = deck.images('fps').length;
    await deck.waitFor(() => deck.images('fps').length > frames, 'the FPS key painting again after the wake');

    const port = portOf(sim);
    await expect.poll(() => readLog(dir), { timeout: 3000 }).toMatch(new RegExp(`INFO\\s+server 127\\.0\\.0\\.1:${port}: After a sleep`));
  });
});
