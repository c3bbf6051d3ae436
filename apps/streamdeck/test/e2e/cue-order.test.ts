/**
 * Cues at the desk, through the built plugin and the fake Stream Deck app, against the simulator: presses land
 * in the order they were made even when the server's answers overtake each other, a press while the server is
 * known not to answer alerts without sending the cue, and a slow cue shows that it is sending. How fast each of
 * these happens is measured by `pnpm bench` (desk-latency), not here.
 */
import type { MediaServer } from '@stagelink/core';
import type { LogEntry, Simulator } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOLD_TO_FIRE_MS } from '../../src/tiles/transport-tile.js';
import type { FakeStreamDeck } from '../harness/fake-stream-deck.js';
import { startDesk, type Desk } from './desk.js';
import { control } from './simulator.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';

describe('cues through the plugin', () => {
  let deck: FakeStreamDeck;
  let sim: Simulator;
  let client: MediaServer;
  let requests: LogEntry[];
  /** Every request that reached the simulator, answered or not (logged as a request, or as an error on closing). */
  let reached: LogEntry[];
  let desk: Desk;

  beforeEach(async () => {
    requests = [];
    reached = [];
    const log = (entry: LogEntry): void => {
      if (entry.event === 'request') requests.push(entry);
      if (entry.path !== undefined) reached.push(entry);
    };
    desk = await startDesk({ log });
    ({ deck, sim, client } = desk);
  });

  afterEach(() => desk.close());

  const cuesLanded = (): string[] =>
    requests.map((entry) => /\/transport\/(gototrack|play)$/.exec(String(entry.path))?.[1]).filter((command) => command !== undefined);

  it('lands a multi-action "go to track, play" in that order 100 times out of 100 while answers overtake each other', async () => {
    const tracks = (await client.transport.tracks()).map((track) => track.name);
    const [first, second] = tracks;
    if (first === undefined || second === undefined) throw new Error('The simulated show has two tracks');
    // The two steps of a multi-action: keys that are never on screen, pressed one right after the other.
    deck.appear({ action: TRANSPORT, context: 'step-goto-a', settings: { command: 'gototrack', transport: 'main', track: first, playmode: 'stop' }, isInMultiAction: true });
    deck.appear({ action: TRANSPORT, context: 'step-goto-b', settings: { command: 'gototrack', transport: 'main', track: second, playmode: 'stop' }, isInMultiAction: true });
    deck.appear({ action: TRANSPORT, context: 'step-play', settings: { command: 'play', transport: 'main' }, isInMultiAction: true });
    // Every answer waits 5 to 35 ms: sent at once over two connections, play would often land first.
    await control(sim, { action: 'latency', ms: 5, jitterMs: 30 });

    for (let round = 1; round <= 100; round++) {
      const track = round % 2 === 0 ? first : second;
      deck.press(round % 2 === 0 ? 'step-goto-a' : 'step-goto-b');
      deck.press('step-play');
      await deck.waitFor(() => deck.sent('showOk', 'step-play').length >= round || undefined, `round ${round}: play answered`);
      // Go to track stops the transport: only "go to track, then play" leaves it playing the new track.
      expect(sim.state.transports.positionOf({ name: 'main' }), `round ${round}`).toMatchObject({ track: { name: track }, playmode: 'play' });
    }
    expect(cuesLanded()).toEqual(Array.from({ length: 100 }, () => ['gototrack', 'play']).flat());
    expect(deck.sent('showAlert')).toEqual([]);
  });

  it('alerts, sending nothing, when a key is pressed while the server is known not to answer', async () => {
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main' } });
    deck.appear({ action: TRANSPORT, context: 'engage', settings: { command: 'engaged', transport: 'main' }, column: 1 });
    deck.appear({ action: TRANSPORT, context: 'to-section', settings: { command: 'gotosection', transport: 'main', track: 'Finale', section: 1 }, column: 2 });
    await deck.waitForImage('play', (svg) => svg.includes('main'), 'the cue face');
    // The server stops answering (its requests hang): the key learns of it from its poll timing out.
    await control(sim, { action: 'latency', ms: 60_000 });
    await deck.waitForLatestImage('play', (svg) => svg.includes('NO LINK'), 'the no-link face', 15_000);

    for (const context of ['play', 'engage', 'to-section']) {
      deck.press(context);
      await deck.waitFor(() => deck.sent('showAlert', context).length > 0 || undefined, `an alert on ${context}`);
    }
    expect(deck.sent('showOk')).toEqual([]);
    // A cue sent anyway would hang in the simulator until it closes, and be logged then: none may be among them.
    await sim.close();
    const cuesSent = reached.filter((entry) => entry.method === 'POST' && String(entry.path).startsWith('/api/'));
    expect(cuesSent.map((entry) => entry.path)).toEqual([]);
  });

  it('fires a hold-to-fire stop only once held, and sends nothing on a tap', async () => {
    deck.appear({ action: TRANSPORT, context: 'stop', settings: { command: 'stop', transport: 'main', hold: true } });
    await deck.waitForImage('stop', (svg) => svg.includes('main') || svg.includes('STOP'), 'the cue face');
    await client.transport.play({ name: 'main' });
    const stops = (): number => requests.filter((entry) => String(entry.path).endsWith('/transport/stop')).length;

    deck.press('stop');
    await deck.waitFor(() => deck.sent('showAlert', 'stop').length > 0 || undefined, 'the alert for a tap');
    expect(stops()).toBe(0);
    expect(sim.state.transports.positionOf({ name: 'main' }).playmode).toBe('play');

    deck.keyDown('stop');
    await new Promise((resolve) => setTimeout(resolve, HOLD_TO_FIRE_MS + 200));
    deck.keyUp('stop');
    await deck.waitFor(() => deck.sent('showOk', 'stop').length > 0 || undefined, 'showOk once held');
    expect(stops()).toBe(1);
    expect(sim.state.transports.positionOf({ name: 'main' }).playmode).toBe('stop');
  });

  it('leaves the top of the key to a title the operator typed, and takes it back when the title goes', async () => {
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main' } });
    await client.transport.play({ name: 'main' });
    await deck.waitForLatestImage('play', (svg) => svg.includes('PLAYING') && svg.includes('<polygon'), 'the playing face with its play mark');
    deck.setTitle('play', 'Walk-in');
    await deck.waitForLatestImage('play', (svg) => svg.includes('PLAYING') && !svg.includes('<polygon'), 'the playing face without its mark');
    deck.setTitle('play', '');
    await deck.waitForLatestImage('play', (svg) => svg.includes('<polygon'), 'the play mark back');
  });

  it('shows a cue that is still on its way as sending, then OK', async () => {
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main' } });
    await deck.waitForImage('play', (svg) => svg.includes('main'), 'the cue face');
    await control(sim, { action: 'latency', ms: 800 });
    deck.press('play');
    await deck.waitForImage('play', (svg) => svg.includes('SENDING'), 'the sending face');
    await deck.waitFor(() => deck.sent('showOk', 'play').length > 0 || undefined, 'showOk');
    await deck.waitForLatestImage('play', (svg) => !svg.includes('SENDING'), 'the sending mark gone');
  });
});
