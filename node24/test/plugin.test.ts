/**
 * The packed plugin, unpacked as the Stream Deck app unpacks it, on Node 24 (the version its manifest asks the app
 * for), driven through the fake Stream Deck app against the simulator: it registers, fires a cue, shows live values,
 * and shows NO LINK when the server goes away.
 */
import { startSimulator, type Simulator } from '@stagelink/simulator';
import { unpackPlugin } from '@stagelink/streamdeck/packed';
import { ACTION_UUIDS, FakeStreamDeck } from '@stagelink/streamdeck/testing';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';

const node = inject('node24');
const showsFps = (svg: string): boolean => / FPS</.test(svg) && !svg.includes('>NO LINK<');

describe('the packed plugin on Node 24', () => {
  let unpacked: string;
  let pluginDir: string;
  let sim: Simulator;
  let deck: FakeStreamDeck;

  beforeAll(() => {
    expect(execFileSync(node, ['--version'], { encoding: 'utf8' })).toMatch(/^v24\./);
    unpacked = mkdtempSync(join(tmpdir(), 'stagelink-node24-plugin-'));
    pluginDir = unpackPlugin(unpacked);
  });

  afterAll(() => {
    if (unpacked) rmSync(unpacked, { recursive: true, force: true });
  });

  beforeEach(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 7 });
    deck = await FakeStreamDeck.start();
    deck.globalSettings.host = sim.mediaServer.url;
    await deck.launch({ node, pluginDir });
  });

  afterEach(async () => {
    await deck.close();
    await sim.close();
  });

  it('starts the transport from a play key and shows OK', async () => {
    deck.appear({ action: ACTION_UUIDS.transport, context: 'play-main', settings: { command: 'play', transport: 'main' } });
    await deck.waitForImage('play-main', (svg) => svg.includes('PLAY'), 'the cue face');

    deck.press('play-main');

    await deck.waitFor((commands) => commands.find((command) => command.event === 'showOk' && command.context === 'play-main'), 'showOk');
    expect(sim.state.transports.list().find((transport) => transport.name === 'main')?.playmode).toBe('play');
  });

  it('shows the live FPS, and NO LINK once the server is gone', async () => {
    deck.appear({ action: ACTION_UUIDS.fps, context: 'fps', settings: { target: 60 } });
    await deck.waitForLatestImage('fps', showsFps, 'a live FPS value', 15_000);

    await sim.close();

    await deck.waitForLatestImage('fps', (svg) => svg.includes('>NO LINK<'), 'the no-link face', 15_000);
  });
});
