/**
 * A flood of what the Stream Deck app could send, and some it never would, through the built plugin and the fake
 * Stream Deck app against the simulator: keys of every action appearing with names a million characters long, their
 * settings changing, presses, turns by absurd tick counts, frames that are no events. Afterwards a cue key set up
 * right still fires at once and a dial set up right still turns: nothing a key or dial sends may keep the plugin busy.
 */
import type { MediaServer } from '@stagelink/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEVICE_ID, type FakeStreamDeck, type Json, type JsonObject } from '../harness/fake-stream-deck.js';
import { ACTION_UUIDS } from '../../src/settings.js';
import { startDesk, type Desk } from './desk.js';

const HUGE = 'x'.repeat(1_000_000);
const HUGE_WORDS = 'Act '.repeat(250_000);
const HUGE_EMOJI = '\u{1f3ad}'.repeat(500_000);

/** Settings of each action with a huge name where the key shows one, and some wrong in other ways. */
const FLOODED: readonly { action: keyof typeof ACTION_UUIDS; controller?: 'Encoder'; settings: JsonObject }[] = [
  { action: 'transport', settings: { command: 'play', transport: HUGE } },
  { action: 'transport', settings: { command: 'gototrack', transport: 'main', track: HUGE_WORDS } },
  { action: 'transport', settings: { command: 'gotonote', transport: 'main', note: HUGE_EMOJI } },
  { action: 'transport', settings: { command: HUGE, transport: HUGE } },
  { action: 'fps', settings: { machine: HUGE, target: 60 } },
  { action: 'health', settings: { machine: HUGE_WORDS } },
  { action: 'clock', settings: { transport: HUGE, show: 'playhead' } },
  { action: 'level', controller: 'Encoder', settings: { property: 'volume', transport: HUGE } },
  { action: 'level', controller: 'Encoder', settings: { property: 'volume', transport: 'lobby', step: 0.05 } },
  { action: 'renderstream', settings: { layer: HUGE, operation: 'stop' } },
  { action: 'renderstream', settings: { layer: HUGE_EMOJI, operation: 'start' } },
];

const ODD_TICKS: readonly Json[] = [1000, -1_000_000, 2.5, 'x', null, 1e308, 3, -1];

describe('after a flood of events', () => {
  let deck: FakeStreamDeck;
  let client: MediaServer;
  let desk: Desk;

  beforeEach(async () => {
    desk = await startDesk();
    ({ deck, client } = desk);
  });

  afterEach(() => desk.close());

  const turn = (context: string, ticks: Json): void => {
    const key = deck.keys.get(context);
    if (!key) throw new Error(`No dial ${context} on the deck`);
    deck.send({ event: 'dialRotate', action: key.action, context, device: DEVICE_ID, payload: { controller: 'Encoder', coordinates: key.coordinates, settings: key.settings, ticks, pressed: false } });
  };

  it('a cue key set up right still answers OK at once, and a dial set up right still turns', async () => {
    for (let round = 0; round < 3; round++) {
      for (const [index, { action, controller, settings }] of FLOODED.entries()) {
        const context = `flood-${index}`;
        deck.appear({ action: ACTION_UUIDS[action], context, settings, ...(controller ? { controller } : {}) });
        if (controller) for (const ticks of ODD_TICKS) turn(context, ticks);
        else deck.press(context);
        deck.changeSettings(context, { ...settings, step: HUGE });
        deck.changeSettings(context, settings);
      }
      deck.sendRaw('not json');
      deck.sendRaw(`{"event":"${'e'.repeat(100_000)}"}`);
      deck.sendRaw('{"event":"keyDown","action":"com.stagelink.mediaserver.transport","context":"never-appeared","payload":{}}');
      deck.changeGlobalSettings({ host: deck.globalSettings.host ?? '' });
      // The key faces are drawn between rounds, as the polls answer.
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    deck.appear({ action: ACTION_UUIDS.transport, context: 'cue', settings: { command: 'play', transport: 'main' } });
    await deck.waitForImage('cue', (svg) => svg.includes('PLAY'), 'the cue key showing its cue', 30_000);
    deck.press('cue');
    await deck.waitFor(() => deck.sent('showOk', 'cue').length > 0 || deck.sent('showAlert', 'cue').length > 0 || undefined, "the cue key's answer", 30_000);
    expect(deck.sent('showAlert', 'cue')).toEqual([]);
    expect(deck.sent('showOk', 'cue')).toHaveLength(1);

    const lobbyVolume = async (): Promise<number | undefined> => (await client.transport.transports()).transports.find((transport) => transport.name === 'lobby')?.volume;
    await client.transport.setVolume({ transport: { name: 'lobby' }, volume: 0.5 });
    await deck.waitFor(() => deck.feedback('flood-8').at(-1)?.value === '50%' || undefined, 'the dial set up right showing 50%', 30_000);
    turn('flood-8', 1);
    await expect.poll(lobbyVolume, { timeout: 30_000 }).toBeCloseTo(0.55, 6);
    expect(deck.exitCode).toBeNull();

    // A million-character name is shortened on its key, not sent whole.
    const face = deck.latestImage('flood-2') ?? '';
    expect(face).toContain('\u2026');
    expect(face.length).toBeLessThan(20_000);
  });
});
