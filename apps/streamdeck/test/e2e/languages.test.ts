/**
 * The built plugin speaks the Stream Deck app's language where it writes for the operator outside the key
 * faces: the settings pages' connection line and dropdown notes, read from the locale files by the SDK.
 */
import type { Simulator } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeStreamDeck, type JsonObject } from '../harness/fake-stream-deck.js';
import { translateIn } from '../unit/locales.js';
import { startSim } from './simulator.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';

describe('the plugin in the app language', () => {
  let deck: FakeStreamDeck;
  let sim: Simulator;

  beforeEach(async () => {
    sim = await startSim();
    deck = await FakeStreamDeck.start();
  });

  afterEach(async () => {
    await deck.close();
    await sim.close();
  });

  async function ask(context: string, payload: JsonObject): Promise<JsonObject> {
    const before = deck.sent('sendToPropertyInspector', context).length;
    deck.sendToPlugin(context, payload);
    const answer = await deck.waitFor((commands) => commands.filter((c) => c.event === 'sendToPropertyInspector' && c.context === context)[before], 'the answer');
    return answer.payload as JsonObject;
  }

  it.each(['de', 'ja'] as const)('answers a settings page in %s', async (language) => {
    const t = translateIn(language);
    await deck.launch({ language });
    deck.appear({ action: TRANSPORT, context: 'cue', settings: {} });
    deck.inspectorAppear('cue');

    const unset = await ask('cue', { request: 'connection', requestId: 1 });
    expect(unset).toMatchObject({ state: 'unset', message: t('inspector.noServer') });

    const connected = await ask('cue', { request: 'connection', requestId: 2, host: sim.mediaServer.url });
    expect(connected.state).toBe('online');
    const [lead] = t('inspector.connected').split('{director}');
    expect(lead).not.toBe('');
    expect(typeof connected.message === 'string' && connected.message.startsWith(lead ?? '')).toBe(true);

    const sections = await ask('cue', { request: 'sections', requestId: 3, host: sim.mediaServer.url });
    expect(sections.error).toBe(t('inspector.sectionsNeedTrack'));
  });
});
