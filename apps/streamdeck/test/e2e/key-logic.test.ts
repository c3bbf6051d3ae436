/**
 * A transport cue as a step of a Key Logic action (Stream Deck 7: one key, an action for a press, a double press
 * and a hold), through the built plugin and the fake Stream Deck app. The app recognises the gesture itself and
 * then runs the step as it runs a multi-action's: the step gets a press and a release at once, never on screen.
 * So a hold-to-fire step fires at once (the operator already held the key for the app), and an engage step set to
 * Disengage always disengages.
 */
import type { LogEntry, Simulator } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeStreamDeck } from '../harness/fake-stream-deck.js';
import { startDesk, type Desk } from './desk.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';

describe('a transport cue as a Key Logic step', () => {
  let deck: FakeStreamDeck;
  let sim: Simulator;
  let desk: Desk;
  let requests: LogEntry[];

  beforeEach(async () => {
    requests = [];
    desk = await startDesk({ log: (entry) => entry.event === 'request' && requests.push(entry) });
    ({ deck, sim } = desk);
  });

  afterEach(() => desk.close());

  it('fires a hold-to-fire stop at once when the app runs the step, and a Disengage step always disengages', async () => {
    await desk.client.transport.play({ name: 'main' });
    await desk.client.transport.setEngaged({ transport: { name: 'main' }, engaged: false });
    deck.appear({ action: TRANSPORT, context: 'on-hold', settings: { command: 'stop', transport: 'main', hold: true }, isInMultiAction: true });
    deck.appear({ action: TRANSPORT, context: 'on-double', settings: { command: 'engaged', transport: 'main', engaged: 'disengage' }, isInMultiAction: true });

    deck.press('on-hold');
    await deck.waitFor(() => deck.sent('showOk', 'on-hold').length > 0 || undefined, 'OK for the stop');
    expect(requests.filter((entry) => String(entry.path).endsWith('/transport/stop'))).toHaveLength(1);
    expect(sim.state.transports.positionOf({ name: 'main' }).playmode).toBe('stop');

    for (let round = 1; round <= 2; round++) {
      deck.press('on-double');
      await deck.waitFor(() => deck.sent('showOk', 'on-double').length >= round || undefined, `OK ${round} for the disengage step`);
      expect(sim.state.transports.list().find((transport) => transport.name === 'main')?.engaged, `round ${round}`).toBe(false);
    }
    expect(deck.sent('showAlert')).toEqual([]);
  });
});
