/**
 * A transport key with the operator's own icon, through the built plugin and the fake Stream Deck app: the app
 * shows that icon instead of any face the plugin draws, so with "Own icon" ticked the key's state goes into its
 * title, which the app still shows; without it, the title stays the operator's.
 */
import type { MediaServer } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeStreamDeck, Json } from '../harness/fake-stream-deck.js';
import { startDesk, type Desk } from './desk.js';
import { loadPage } from './inspector-dom.js';
import { control } from './simulator.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';

describe('a key with its own icon', () => {
  let deck: FakeStreamDeck;
  let sim: Simulator;
  let client: MediaServer;
  let desk: Desk;

  beforeEach(async () => {
    desk = await startDesk();
    ({ deck, sim, client } = desk);
  });

  afterEach(() => desk.close());

  /** The titles the plugin set on a key, in order (undefined: given back to the operator's title). */
  const titles = (context: string): (string | undefined)[] =>
    deck.sent('setTitle', context).map((command) => (command.payload as { title?: Json } | undefined)?.title as string | undefined);

  it('keeps PLAYING and NO LINK in the title, and gives the title back when the state goes', async () => {
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main', ownIcon: true } });
    deck.appear({ action: TRANSPORT, context: 'plain', settings: { command: 'play', transport: 'main' }, column: 1 });
    await client.transport.play({ name: 'main' });
    await deck.waitFor(() => titles('play').includes('PLAYING') || undefined, 'PLAYING in the title');
    await client.transport.stop({ name: 'main' });
    await deck.waitFor(() => (titles('play').length > 0 && titles('play').at(-1) === undefined) || undefined, 'the title given back');
    await control(sim, { action: 'latency', ms: 60_000 });
    await deck.waitFor(() => titles('play').at(-1) === 'NO LINK' || undefined, 'NO LINK in the title', 20_000);
    // A key without its own icon shows its state in its face, and never takes the operator's title.
    expect(titles('plain').every((title) => title === undefined)).toBe(true);
  });

  it('says on every key settings page that an icon of your own hides what the key shows', () => {
    for (const page of ['transport.html', 'fps.html', 'health.html', 'clock.html', 'renderstream.html']) {
      const dom = loadPage(page);
      const text = dom.window.document.body.textContent ?? '';
      dom.window.close();
      expect(text, page).toMatch(/An icon you set on this key in the Stream Deck app hides/);
    }
    const transport = loadPage('transport.html');
    expect(transport.window.document.getElementById('ownIcon')?.getAttribute('data-setting')).toBe('ownIcon');
    transport.window.close();
  });
});
