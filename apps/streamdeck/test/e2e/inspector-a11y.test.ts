/**
 * The settings pages for every operator: the connection line is announced to screen readers, notes are read
 * with their fields, nothing shows before the page connects that it then hides, and a saved value the page
 * cannot find in the server's list says whether the server answered without it or could not be asked.
 * The real pages in a DOM (jsdom), as in inspector-page.test.ts; the round trips go through the fake app to
 * the built plugin, which reads the simulator.
 */
import type { Simulator } from '@stagelink/simulator';
import type { JSDOM } from 'jsdom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeStreamDeck } from '../harness/fake-stream-deck.js';
import { type InspectorWindow, loadPage, openInspector, optionLabel, until } from './inspector-dom.js';
import { startSim } from './simulator.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';
const PAGES = ['transport.html', 'fps.html', 'health.html', 'level.html', 'clock.html', 'renderstream.html'];

/** Rows and notes a reader sees: not hidden themselves or by a parent, and (notes) not empty. */
function shown(dom: JSDOM): string[] {
  const isShown = (element: Element | null): boolean => !element || (!(element as HTMLElement).hidden && isShown(element.parentElement));
  return [...dom.window.document.querySelectorAll<HTMLElement>('.row, .note')]
    .filter((element) => isShown(element) && (!element.classList.contains('note') || (element.textContent ?? '').trim() !== ''))
    .map((element) => element.outerHTML.slice(0, 120));
}

describe('every settings page, as it loads', () => {
  it.each(PAGES)('%s announces its connection line politely and reads each note with its field', (page) => {
    const dom = loadPage(page);
    const document = dom.window.document;
    const line = document.getElementById('connection');
    expect(line?.getAttribute('role')).toBe('status');
    expect(line?.getAttribute('aria-live')).toBe('polite');
    const describedBy = (id: string): string[] => (document.getElementById(id)?.getAttribute('aria-describedby') ?? '').split(' ');
    expect(describedBy('host')).toContain('connection');
    const notes = [...document.querySelectorAll<HTMLElement>('[data-note-for]')];
    expect(notes.length).toBeGreaterThan(0);
    for (const note of notes) {
      const field = note.dataset['noteFor'] ?? '';
      expect(note.id, field).not.toBe('');
      expect(describedBy(field), field).toContain(note.id);
    }
    for (const id of describedBy('section').filter((entry) => entry !== '')) expect(document.getElementById(id), id).not.toBeNull();
    dom.window.close();
  });

  it.each(PAGES)('%s shows nothing before it connects that the saved settings then hide', (page) => {
    const dom = loadPage(page);
    const before = shown(dom);
    const actionInfo = { action: TRANSPORT, context: 'cue', payload: { settings: { command: 'play', transport: 'main' } } };
    // Port 9 answers nothing: the settings are shown before the socket opens, which is what matters here.
    (dom.window as unknown as InspectorWindow).connectElgatoStreamDeckSocket(9, 'cue', 'registerPropertyInspector', '{}', JSON.stringify(actionInfo));
    const after = shown(dom);
    expect(before.filter((element) => !after.includes(element))).toEqual([]);
    dom.window.close();
  });
});

describe('a saved value the server does not list', () => {
  let deck: FakeStreamDeck;
  let sim: Simulator;
  let dom: JSDOM | undefined;

  beforeEach(async () => {
    sim = await startSim();
    deck = await FakeStreamDeck.start();
  });

  afterEach(async () => {
    dom?.window.close();
    await deck.close();
    await sim.close();
  });

  it('is "not on the server now" only once the server has answered without it', async () => {
    deck.globalSettings.host = sim.mediaServer.url;
    await deck.launch();
    deck.appear({ action: TRANSPORT, context: 'cue', settings: { command: 'play', transport: 'Ghost' } });
    dom = openInspector(deck, 'transport.html', 'cue');
    const page = dom;
    // Before any answer the page does not guess.
    expect(optionLabel(page, 'transport', 'Ghost')).toBe('Ghost');

    const label = await until('the transports listed', () => (optionLabel(page, 'transport', 'main') ? optionLabel(page, 'transport', 'Ghost') : undefined));
    expect(label).toBe('Ghost (not on the server now)');
    expect((page.window.document.getElementById('transport') as HTMLSelectElement).value).toBe('Ghost');
  });

  it('says it cannot check while the server cannot be reached', async () => {
    deck.globalSettings.host = 'http://127.0.0.1:9';
    await deck.launch();
    deck.appear({ action: TRANSPORT, context: 'cue', settings: { command: 'play', transport: 'main' } });
    dom = openInspector(deck, 'transport.html', 'cue');
    const page = dom;
    const note = () => page.window.document.querySelector('[data-note-for="transport"]')?.textContent ?? '';

    await until('the transports request failing', () => note() !== '' && note() !== 'loading...');
    expect(optionLabel(page, 'transport', 'main')).toBe('main (server unreachable, cannot check)');
    expect((page.window.document.getElementById('transport') as HTMLSelectElement).value).toBe('main');
    // The connection line has its own request, answered in its own time.
    await until('the connection line saying offline', () => (page.window.document.getElementById('connection')?.className ?? '').includes('offline'));
  });
});
