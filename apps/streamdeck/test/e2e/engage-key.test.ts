/**
 * The engage key through the built plugin and the fake Stream Deck app, against the simulator: set to Engage or
 * Disengage it always sends that, on the deck and inside a multi-action; set to Toggle it sends the opposite on
 * the deck, and inside a multi-action the state the operator chose for the step (`userDesiredState`).
 */
import type { MediaServer } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeStreamDeck } from '../harness/fake-stream-deck.js';
import { startDesk, type Desk } from './desk.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';

describe('the engage key', () => {
  let deck: FakeStreamDeck;
  let sim: Simulator;
  let client: MediaServer;
  let desk: Desk;

  beforeEach(async () => {
    let read = false;
    desk = await startDesk({ log: (entry) => void (entry.event === 'request' && String(entry.path).endsWith('/transport/transports') && (read = true)) });
    ({ deck, sim, client } = desk);
    // A key on the deck has the plugin find the director and read the transports before any press: a press is
    // then only its own request.
    deck.appear({ action: TRANSPORT, context: 'watch', settings: { command: 'play', transport: 'main' }, column: 3 });
    await deck.waitFor(() => read || undefined, 'the first reading of the transports');
  });

  afterEach(() => desk.close());

  const engaged = (): boolean | undefined => sim.state.transports.list().find((transport) => transport.name === 'main')?.engaged;

  /** Presses `context` and waits for its OK (the engage request answered). */
  async function pressAndWait(context: string, round: number): Promise<void> {
    deck.press(context);
    await deck.waitFor(() => deck.sent('showOk', context).length >= round || undefined, `OK number ${round} on ${context}`);
  }

  it('disengages from a "reset the stage" multi-action step however often it runs, whatever the transport was', async () => {
    deck.appear({ action: TRANSPORT, context: 'reset-disengage', settings: { command: 'engaged', transport: 'main', engaged: 'disengage' }, isInMultiAction: true });
    await client.transport.setEngaged({ transport: { name: 'main' }, engaged: false });
    for (let round = 1; round <= 3; round++) {
      await pressAndWait('reset-disengage', round);
      expect(engaged(), `round ${round}`).toBe(false);
    }
    await client.transport.setEngaged({ transport: { name: 'main' }, engaged: true });
    await pressAndWait('reset-disengage', 4);
    expect(engaged()).toBe(false);
    expect(deck.sent('showAlert')).toEqual([]);
  });

  it('engages from a key set to Engage, pressed twice', async () => {
    deck.appear({ action: TRANSPORT, context: 'engage', settings: { command: 'engaged', transport: 'main', engaged: 'engage' } });
    await deck.waitForImage('engage', (svg) => svg.includes('>ENGAGE<'), 'the key saying it engages');
    await client.transport.setEngaged({ transport: { name: 'main' }, engaged: false });
    await pressAndWait('engage', 1);
    expect(engaged()).toBe(true);
    await pressAndWait('engage', 2);
    expect(engaged()).toBe(true);
  });

  it('sends the state chosen for a multi-action step when the key is set to Toggle', async () => {
    deck.appear({ action: TRANSPORT, context: 'step-off', settings: { command: 'engaged', transport: 'main' }, isInMultiAction: true, userDesiredState: 1 });
    deck.appear({ action: TRANSPORT, context: 'step-on', settings: { command: 'engaged', transport: 'main', engaged: 'toggle' }, isInMultiAction: true, userDesiredState: 0 });
    await client.transport.setEngaged({ transport: { name: 'main' }, engaged: false });
    await pressAndWait('step-off', 1);
    expect(engaged()).toBe(false);
    await pressAndWait('step-on', 1);
    expect(engaged()).toBe(true);
    await pressAndWait('step-on', 2);
    expect(engaged()).toBe(true);
  });

  it('still toggles from a key on the deck set to Toggle, as keys saved before the choice did', async () => {
    deck.appear({ action: TRANSPORT, context: 'toggle', settings: { command: 'engaged', transport: 'main' } });
    await client.transport.setEngaged({ transport: { name: 'main' }, engaged: false });
    await pressAndWait('toggle', 1);
    expect(engaged()).toBe(true);
    await pressAndWait('toggle', 2);
    expect(engaged()).toBe(false);
  });
});
