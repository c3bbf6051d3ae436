/**
 * The RenderStream layer key through the fake Stream Deck app and the built plugin, against the simulator: in the
 * r34 dialect a key shows its layer's workload (RUNNING, then ERROR when the workload crashes), a restart or stop
 * key arms on its first press and sends nothing, its second press sends it (stop with core's confirmation) and the
 * face follows the workload; a name the director does not list says NO LAYER and sends nothing. In the documents'
 * dialect, which has no RenderStream, the key says N/A, a press alerts, and the settings page says why. The settings
 * page offers the director's layers and takes a name typed.
 */
import type { Simulator } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JSDOM } from 'jsdom';
import type { FakeStreamDeck } from '../harness/fake-stream-deck.js';
import { palette } from '../../src/render/palette.js';
import { readFace, wordsOf } from '../unit/face-reading.js';
import { startDesk, type Desk } from './desk.js';
import { choose, openInspector, until } from './inspector-dom.js';
import { control } from './simulator.js';

const RENDERSTREAM = 'com.stagelink.mediaserver.renderstream';
const RESTART_PATH = '/api/session/renderstream/restartlayers';
const STOP_PATH = '/api/session/renderstream/stoplayers';
const START_PATH = '/api/session/renderstream/startlayers';

/** The note under a field of a settings page. */
const noteOf = (page: JSDOM, id: string): string => page.window.document.querySelector(`[data-note-for="${id}"]`)?.textContent ?? '';

/** The face's words are these, top to bottom. */
const says = (...words: string[]) => (svg: string): boolean => JSON.stringify(wordsOf(svg)) === JSON.stringify(words);

describe('the RenderStream layer key on an r34 director', () => {
  let desk: Desk;
  let deck: FakeStreamDeck;
  let sim: Simulator;

  beforeEach(async () => {
    desk = await startDesk({ dialect: 'r34' });
    ({ deck, sim } = desk);
  });

  afterEach(() => desk.close());

  const workloadOf = (name: string): string | undefined => sim.state.renderStream.layers().find((layer) => layer.name === name)?.workload.state;

  it('shows RUNNING, ERROR when the workload crashes, and restarts it on the second press only', async () => {
    deck.appear({ action: RENDERSTREAM, context: 'unreal', settings: { layer: 'Unreal Stage' } });
    const running = await deck.waitForLatestImage('unreal', says('Unreal Stage', 'RUNNING'), 'RUNNING');
    expect(readFace(running).background).toBe(palette.ok);

    await control(sim, { action: 'crashWorkload', layer: { name: 'Unreal Stage' } });
    const error = await deck.waitForLatestImage('unreal', says('Unreal Stage', 'ERROR'), 'ERROR after the crash');
    expect(readFace(error).background).toBe(palette.error);

    // The first press arms the key and sends nothing.
    deck.press('unreal');
    await deck.waitForLatestImage('unreal', says('RESTART?', 'PRESS AGAIN'), 'the key armed');
    expect(sim.arrivals.count('POST', RESTART_PATH)).toBe(0);
    expect(workloadOf('Unreal Stage')).toBe('error');
    expect(deck.sent('showOk', 'unreal')).toEqual([]);

    // The second press, within the arm window, restarts the workload.
    deck.press('unreal');
    await deck.waitFor(() => deck.sent('showOk', 'unreal').length === 1 || undefined, 'OK after the restart');
    expect(sim.arrivals.count('POST', RESTART_PATH)).toBe(1);
    expect(workloadOf('Unreal Stage')).toBe('running');
    await deck.waitForLatestImage('unreal', says('Unreal Stage', 'RUNNING'), 'RUNNING again');
    expect(deck.sent('showAlert', 'unreal')).toEqual([]);
  });

  it('stops a workload only on the second press, with the face ending STOPPED, and starts it again at once', async () => {
    deck.appear({ action: RENDERSTREAM, context: 'stop', settings: { layer: 'Notch FX', operation: 'stop' } });
    deck.appear({ action: RENDERSTREAM, context: 'start', settings: { layer: 'Notch FX', operation: 'start' }, column: 1 });
    await deck.waitForLatestImage('stop', says('Notch FX', 'RUNNING'), 'RUNNING');

    deck.press('stop');
    await deck.waitForLatestImage('stop', says('STOP?', 'PRESS AGAIN'), 'the stop key armed');
    expect(sim.arrivals.count('POST', STOP_PATH)).toBe(0);
    expect(workloadOf('Notch FX')).toBe('running');

    deck.press('stop');
    await deck.waitFor(() => deck.sent('showOk', 'stop').length === 1 || undefined, 'OK after the stop');
    expect(workloadOf('Notch FX')).toBe('stopped');
    await deck.waitForLatestImage('stop', says('Notch FX', 'STOPPED'), 'STOPPED on the stop key');
    await deck.waitForLatestImage('start', says('Notch FX', 'STOPPED'), 'STOPPED on the start key');

    // Start is not guarded: one press.
    deck.press('start');
    await deck.waitFor(() => deck.sent('showOk', 'start').length === 1 || undefined, 'OK after the start');
    expect(sim.arrivals.count('POST', START_PATH)).toBe(1);
    await deck.waitForLatestImage('stop', says('Notch FX', 'RUNNING'), 'RUNNING again');
    expect(deck.sent('showAlert')).toEqual([]);
  });

  it('says NO LAYER for a name the director does not list, and alerts on a press without sending anything', async () => {
    deck.appear({ action: RENDERSTREAM, context: 'typo', settings: { layer: 'Unreal Stag', operation: 'start' } });
    deck.appear({ action: RENDERSTREAM, context: 'case', settings: { layer: 'notch fx' }, column: 1 });
    const missing = await deck.waitForLatestImage('typo', says('Unreal Stag', 'NO LAYER'), 'NO LAYER');
    expect(readFace(missing).background).toBe(palette.neutral);
    // A name typed in another case finds its layer.
    await deck.waitForLatestImage('case', says('Notch FX', 'RUNNING'), 'the layer found in another case');

    deck.press('typo');
    await deck.waitFor(() => deck.sent('showAlert', 'typo').length === 1 || undefined, 'an alert on the typo key');
    expect(sim.arrivals.count('POST', START_PATH)).toBe(0);
    expect(deck.exitCode).toBeNull();
  });

  it("offers the director's layers on the settings page, takes a name typed, and says when the director has none of that name", async () => {
    deck.appear({ action: RENDERSTREAM, context: 'unreal', settings: {} });
    const page = openInspector(deck, 'renderstream.html', 'unreal');
    try {
      const offered = (): string[] => [...page.window.document.querySelectorAll('#layer-choices option')].map((option) => (option as HTMLOptionElement).value);
      await until('the layers offered', () => offered().length > 0);
      expect(offered()).toEqual(['Unreal Stage', 'Notch FX', 'TouchDesigner Data']);

      choose(page, 'layer', 'Unreal Stag');
      await until('the note on a name the director does not list', () => noteOf(page, 'layer').includes('not on the server now'));
      await deck.waitForLatestImage('unreal', says('Unreal Stag', 'NO LAYER'), 'NO LAYER for the name typed');

      choose(page, 'layer', 'Unreal Stage');
      await until('the note cleared', () => noteOf(page, 'layer') === '');
      expect(deck.keys.get('unreal')?.settings).toEqual({ layer: 'Unreal Stage' });
      await deck.waitForLatestImage('unreal', says('Unreal Stage', 'RUNNING'), 'RUNNING for the name picked');
    } finally {
      page.window.close();
    }
  });
});

describe('the RenderStream layer key on a director without RenderStream', () => {
  let desk: Desk;
  let deck: FakeStreamDeck;

  beforeEach(async () => {
    desk = await startDesk({ dialect: 'spec' });
    ({ deck } = desk);
  });

  afterEach(() => desk.close());

  it('says N/A, alerts on a press, tells the settings page RenderStream is not offered, and keeps the plugin running', async () => {
    deck.appear({ action: RENDERSTREAM, context: 'unreal', settings: { layer: 'Unreal Stage', operation: 'start' } });
    await deck.waitForLatestImage('unreal', says('Unreal Stage', 'N/A'), 'N/A');

    deck.press('unreal');
    await deck.waitFor(() => deck.sent('showAlert', 'unreal').length === 1 || undefined, 'an alert on the press');

    const page = openInspector(deck, 'renderstream.html', 'unreal');
    try {
      await until('the note saying RenderStream is not offered', () => /does not offer RenderStream/.test(noteOf(page, 'layer')));
    } finally {
      page.window.close();
    }
    expect(deck.exitCode).toBeNull();
    expect(wordsOf(deck.latestImage('unreal') ?? '')).toEqual(['Unreal Stage', 'N/A']);
  });
});
