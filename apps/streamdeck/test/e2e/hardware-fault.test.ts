/**
 * The health key's hardware fault, through the fake Stream Deck app and the built plugin, against the simulator:
 * the director's management controller named in the global settings and read every second, a stopped fan shown as
 * FAN on the machine's key and on the session's, gone again when the fan turns, an SMC that stops answering shown as
 * OFFLINE, and one poll of the SMC for every key.
 */
import type { Simulator } from '@stagelink/simulator';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeStreamDeck, PLUGIN_DIR } from '../harness/fake-stream-deck.js';
import { palette } from '../../src/render/palette.js';
import { control, startSim } from './simulator.js';

const HEALTH = 'com.stagelink.mediaserver.health';

/** The word in the box above the scope, and the box's colour; undefined when the face has no hardware fault. */
function faultDrawn(svg: string): { word: string; fill: string } | undefined {
  const match = /<rect x="8" y="6" width="128" height="48" rx="8" ry="8" fill="(#[0-9a-f]{6})"[^>]*\/><text[^>]*>([^<]*)<\/text>/.exec(svg);
  return match?.[1] && match[2] ? { fill: match[1], word: match[2] } : undefined;
}

beforeAll(() => {
  if (!existsSync(join(PLUGIN_DIR, 'bin', 'plugin.js'))) throw new Error('Build the plugin first: pnpm --filter @stagelink/streamdeck build');
});

describe("the health key's hardware fault", () => {
  let deck: FakeStreamDeck;
  let sim: Simulator;
  let director: string;

  beforeEach(async () => {
    sim = await startSim();
    director = sim.state.machines.sessionInfo().director?.hostname ?? '';
    if (director === '') throw new Error('The simulated session has no director');
    deck = await FakeStreamDeck.start();
    deck.globalSettings.host = sim.mediaServer.url;
    // r34 serves each machine's SMC apart; the documents' dialect serves the hardware family on the API's address.
    deck.globalSettings.smcs = `${director}=${sim.smc?.url ?? sim.mediaServer.url}`;
    deck.globalSettings.hardwareEvery = '1';
    await deck.launch();
    deck.appear({ action: HEALTH, context: 'health-director', settings: { machine: director } });
    deck.appear({ action: HEALTH, context: 'health-session', settings: {}, column: 1 });
    await deck.waitForLatestImage('health-director', (svg) => svg.includes(`>${director}<`) && faultDrawn(svg) === undefined, `${director}'s health`);
  });

  afterEach(async () => {
    await deck.close();
    await sim.close();
  });

  it('shows FAN beside the health of the machine and of the session while a fan stands, and goes back when it turns', async () => {
    // Two keys read the hardware for a while: polls are counted before the fault, which must not wait for them.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const before = sim.arrivals.count('GET', '/api/chassis/stats', director);
    const startedAt = Date.now();

    await control(sim, { action: 'hardwareFault', hostname: director, fault: 'fan', on: true });

    const drawn = await deck.waitForLatestImage('health-director', (svg) => faultDrawn(svg)?.word === 'FAN', 'FAN on the machine key', 10_000);
    expect(faultDrawn(drawn)?.fill).toBe(palette.error);
    expect(drawn).toContain(`>${director}<`);
    await deck.waitForLatestImage('health-session', (svg) => faultDrawn(svg)?.word === 'FAN' && svg.includes('>SESSION<'), 'FAN on the session key', 10_000);

    await control(sim, { action: 'hardwareFault', hostname: director, fault: 'fan', on: false });

    await deck.waitForLatestImage('health-director', (svg) => faultDrawn(svg) === undefined && svg.includes(`>${director}<`), 'the fault gone from the machine key', 10_000);
    await deck.waitForLatestImage('health-session', (svg) => faultDrawn(svg) === undefined && svg.includes('>SESSION<'), 'the fault gone from the session key', 10_000);
    // Both keys share one watch: one read a second (a poll starts a second after the last one started), not two.
    const reads = sim.arrivals.count('GET', '/api/chassis/stats', director) - before;
    const seconds = (Date.now() - startedAt) / 1000;
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
  });

  it('shows an SMC that stops answering as OFFLINE, never its last reading', async () => {
    await control(sim, { action: 'smcSilent', hostname: director, on: true });

    const drawn = await deck.waitForLatestImage('health-director', (svg) => faultDrawn(svg)?.word === 'OFFLINE', 'OFFLINE on the machine key', 10_000);
    expect(faultDrawn(drawn)?.fill).toBe(palette.machineOffline);

    await control(sim, { action: 'smcSilent', hostname: director, on: false });
    await deck.waitForLatestImage('health-director', (svg) => faultDrawn(svg) === undefined, 'answering again', 10_000);
  });
});
