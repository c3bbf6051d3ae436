/**
 * Start-up through the built plugin and the fake Stream Deck app: the plugin asks for the global settings with
 * message identifiers on (Stream Deck 7.1), so the SDK hands it the answer as the request's value and sends no
 * event for it; keys take their host from that answer. A change made on a settings page still arrives as an event.
 */
import type { Simulator } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeStreamDeck } from '../harness/fake-stream-deck.js';
import { startDesk, type Desk } from './desk.js';
import { startSim } from './simulator.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';

describe('start-up', () => {
  let desk: Desk;
  let deck: FakeStreamDeck;
  let other: Simulator | undefined;

  beforeEach(async () => {
    desk = await startDesk();
    deck = desk.deck;
  });

  afterEach(async () => {
    await desk.close();
    await other?.close();
  });

  it('asks for the global settings with a message identifier and takes the host from the answer', async () => {
    const request = await deck.waitFor((commands) => commands.find((command) => command.event === 'getGlobalSettings'), 'the request for the global settings');
    expect(request.id).toEqual(expect.any(String));
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main' } });
    await deck.waitForLatestImage('play', (svg) => svg.includes('>PLAY<') && svg.includes('>main<'), 'the cue face, read from the host of the answer');
    deck.press('play');
    await deck.waitFor(() => deck.sent('showOk', 'play').length > 0 || undefined, 'OK from the server of the answer');
    expect(desk.sim.state.transports.positionOf({ name: 'main' }).playmode).toBe('play');
  });

  it('follows a host changed on a settings page', async () => {
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main' } });
    await deck.waitForLatestImage('play', (svg) => svg.includes('>main<'), 'the cue face');
    other = await startSim();
    deck.changeGlobalSettings({ host: other.mediaServer.url });
    deck.press('play');
    await deck.waitFor(() => deck.sent('showOk', 'play').length > 0 || undefined, 'OK from the new server');
    expect(other.state.transports.positionOf({ name: 'main' }).playmode).toBe('play');
    expect(desk.sim.state.transports.positionOf({ name: 'main' }).playmode).toBe('stop');
  });
});
