/**
 * A multi-action against a slow director, through the built plugin and the fake Stream Deck app: its steps arrive
 * at once and wait for each other, so each step of the burst may wait one request timeout longer than the one
 * before it, and every step lands; a cue pressed on its own behind them still may not wait more than 3 s, and says
 * NOT SENT on its key.
 */
import type { MediaServer } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeStreamDeck } from '../harness/fake-stream-deck.js';
import { startDesk, type Desk } from './desk.js';
import { control } from './simulator.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';

describe('a multi-action against a director answering 3.5 s late', () => {
  let deck: FakeStreamDeck;
  let sim: Simulator;
  let client: MediaServer;
  let desk: Desk;
  /** Paths of the requests the simulator answered. */
  let answered: string[];

  beforeEach(async () => {
    answered = [];
    desk = await startDesk({ log: (entry) => entry.event === 'request' && answered.push(String(entry.path)) });
    ({ deck, sim, client } = desk);
  });

  afterEach(() => desk.close());

  it('lands engage, go to track and play, and refuses a lone cue that waited behind them with NOT SENT on its key', async () => {
    const tracks = (await client.transport.tracks()).map((track) => track.name);
    const target = tracks[1];
    if (target === undefined) throw new Error('The simulated show has two tracks');
    await client.transport.setEngaged({ transport: { name: 'main' }, engaged: false });
    deck.appear({ action: TRANSPORT, context: 'step-engage', settings: { command: 'engaged', transport: 'main', engaged: 'engage' }, isInMultiAction: true });
    deck.appear({ action: TRANSPORT, context: 'step-goto', settings: { command: 'gototrack', transport: 'main', track: target, playmode: 'stop' }, isInMultiAction: true });
    deck.appear({ action: TRANSPORT, context: 'step-play', settings: { command: 'play', transport: 'main' }, isInMultiAction: true });
    deck.appear({ action: TRANSPORT, context: 'stop', settings: { command: 'stop', transport: 'main' } });
    await deck.waitForImage('stop', (svg) => svg.includes('STOP'), 'the stop key');
    // The plugin's client has found the director and read the transports before the director slows down: the
    // 3.5 s are the cues' own.
    await deck.waitFor(() => answered.some((path) => path.endsWith('/transport/transports')) || undefined, "the stop key's first reading");
    await control(sim, { action: 'latency', ms: 3500 });

    deck.press('step-engage');
    deck.press('step-goto');
    deck.press('step-play');
    // Well after the burst (the plugin takes cues more than 0.5 s apart as separate), a stop on its own: it would
    // wait for all three steps, over 3 s.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    deck.press('stop');

    for (const step of ['step-engage', 'step-goto', 'step-play']) {
      await deck.waitFor(() => deck.sent('showOk', step).length > 0 || deck.sent('showAlert', step).length > 0 || undefined, `the outcome of ${step}`, 30_000);
    }
    expect(deck.sent('showAlert').filter((command) => command.context !== 'stop')).toEqual([]);
    await control(sim, { action: 'latency', ms: 0 });
    const main = sim.state.transports.list().find((transport) => transport.name === 'main');
    expect(main?.engaged).toBe(true);
    expect(sim.state.transports.positionOf({ name: 'main' })).toMatchObject({ track: { name: target }, playmode: 'play' });

    await deck.waitForImage('stop', (svg) => svg.includes('>NOT<') && svg.includes('>SENT<'), 'NOT SENT on the lone stop key', 30_000);
    expect(deck.sent('showAlert', 'stop')).toHaveLength(1);
  });
});
