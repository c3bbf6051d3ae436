/**
 * A property inspector page as the Stream Deck app shows it: the real HTML and script in a DOM (jsdom),
 * connected through the fake app to the built plugin, which reads the simulator. No CDN, no network of its
 * own: everything it lists comes through the plugin.
 */
import { MediaServer, PLAYMODES, TRANSPORT_COMMAND_LABELS, TRANSPORT_COMMAND_NAMES, TRANSPORT_COMMANDS } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import type { JSDOM } from 'jsdom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeStreamDeck } from '../harness/fake-stream-deck.js';
import { sectionLabel } from '../../src/inspector/section-label.js';
import { choose, labels, openInspector, options, until } from './inspector-dom.js';
import { control, startSim } from './simulator.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';

describe('the transport inspector page', () => {
  let deck: FakeStreamDeck;
  let sim: Simulator;
  let client: MediaServer;
  let dom: JSDOM | undefined;

  beforeEach(async () => {
    sim = await startSim();
    client = new MediaServer({ host: sim.mediaServer.url });
    deck = await FakeStreamDeck.start();
    deck.globalSettings.host = sim.mediaServer.url;
    await deck.launch();
  });

  afterEach(async () => {
    dom?.window.close();
    await deck.close();
    await client.close();
    await sim.close();
  });

  it('fills its dropdowns from the live server and saves what the operator picks', async () => {
    deck.appear({ action: TRANSPORT, context: 'cue', settings: {} });
    dom = openInspector(deck, 'transport.html', 'cue');
    const page = dom;
    const { transports, multitransports } = await client.transport.transports();
    const tracks = await client.transport.tracks();

    await until('the transports dropdown', () => options(page, 'transport').length > 0);
    expect(options(page, 'transport')).toEqual([...transports, ...multitransports].map((t) => t.name));
    await until('the tracks dropdown', () => options(page, 'track').length > 0);
    expect(options(page, 'track')).toEqual(tracks.map((track) => track.name));
    const line = await until('the connection line', () => {
      const text = page.window.document.getElementById('connection')?.textContent ?? '';
      return text.includes('Connected') ? text : undefined;
    });
    expect(line).toContain(new URL(sim.mediaServer.url).host);
    expect((page.window.document.getElementById('host') as HTMLInputElement).value).toBe(sim.mediaServer.url);

    choose(page, 'command', 'gotosection');
    choose(page, 'transport', 'main');
    const track = tracks[1]?.name ?? '';
    choose(page, 'track', track);
    const { annotations } = await client.transport.annotations({ name: track });
    await until('the sections of the chosen track', () => options(page, 'section').length > 0);
    // Each section by its 0-based index and start time ("1 · 1:30"); the key keeps the index, as a number.
    expect(options(page, 'section')).toEqual(annotations.sections.map((section) => String(section.index)));
    expect(labels(page, 'section')).toEqual(annotations.sections.map(sectionLabel));
    expect(labels(page, 'section')[0]).toMatch(/^0 · \d+:\d\d/);
    expect(page.window.document.getElementById('section')?.closest('.row')?.hasAttribute('hidden')).toBe(false);
    expect(page.window.document.getElementById('timecode')?.closest('.row')?.hasAttribute('hidden')).toBe(true);
    const last = annotations.sections.at(-1)?.index ?? -1;
    choose(page, 'section', String(last));

    await until('the section saved', () => deck.keys.get('cue')?.settings.section !== undefined);
    expect(deck.keys.get('cue')?.settings).toEqual({ command: 'gotosection', transport: 'main', track, section: last });
    await deck.waitForLatestImage('cue', (svg) => svg.includes(`Section ${last}<`), 'the key showing its new cue');
  });

  it("lists core's commands and playmodes, and shows exactly the rows of the fields the chosen command takes", () => {
    deck.appear({ action: TRANSPORT, context: 'cue', settings: {} });
    dom = openInspector(deck, 'transport.html', 'cue');
    const document = dom.window.document;
    expect(options(dom, 'command')).toEqual(TRANSPORT_COMMAND_NAMES);
    // The engage key has its own choice of what it sends: its label does not say toggle.
    expect(labels(dom, 'command')).toEqual(TRANSPORT_COMMAND_NAMES.map((command) => TRANSPORT_COMMAND_LABELS[command]));
    expect(options(dom, 'playmode')).toEqual(PLAYMODES.filter((playmode) => playmode !== 'NotSet'));
    const rows = [...document.querySelectorAll<HTMLElement>('.row[data-field]')];
    const shown = (): string[] => rows.filter((row) => !row.hidden).map((row) => row.dataset['field'] ?? '');
    // Before a command is chosen, no field row shows: nothing flickers while the page connects.
    expect(shown()).toEqual([]);
    for (const command of TRANSPORT_COMMAND_NAMES) {
      choose(dom, 'command', command);
      const { required, optional } = TRANSPORT_COMMANDS[command];
      const withRows = [...required, ...optional].filter((field) => rows.some((row) => row.dataset['field'] === field));
      expect(shown().sort(), command).toEqual(withRows.sort());
    }
  });

  it('offers an engage key Engage, Disengage or Toggle, and the key shows and keeps the choice', async () => {
    deck.appear({ action: TRANSPORT, context: 'engage', settings: {} });
    dom = openInspector(deck, 'transport.html', 'engage');
    const page = dom;
    await until('the transports dropdown', () => options(page, 'transport').includes('main'));
    choose(page, 'command', 'engaged');
    choose(page, 'transport', 'main');
    expect(page.window.document.getElementById('engaged')?.closest('.row')?.hasAttribute('hidden')).toBe(false);
    expect(options(page, 'engaged')).toEqual(['engage', 'disengage', 'toggle']);
    // A key saved before the choice existed toggles, and the page says so.
    expect((page.window.document.getElementById('engaged') as HTMLSelectElement).value).toBe('toggle');
    choose(page, 'engaged', 'disengage');
    await until('the choice saved', () => deck.keys.get('engage')?.settings.engaged === 'disengage');
    expect(deck.keys.get('engage')?.settings).toEqual({ command: 'engaged', transport: 'main', engaged: 'disengage' });
    await deck.waitForLatestImage('engage', (svg) => svg.includes('>DISENGAGE<'), 'the key saying it disengages');
  });

  it('shows the connection line when every answer comes slower than the page refreshes it', async () => {
    // Later than the page's 5 s refresh: a refresh that asked again would drop every answer as out of date.
    deck.inspectorDelayMs = 6000;
    deck.appear({ action: TRANSPORT, context: 'cue', settings: {} });
    dom = openInspector(deck, 'transport.html', 'cue');
    const page = dom;
    const line = () => page.window.document.getElementById('connection')?.textContent ?? '';
    await until('the connection line', () => line().includes('Connected'), 20_000);
  });

  it('stores the media server address in the global settings', async () => {
    deck.appear({ action: TRANSPORT, context: 'cue', settings: { command: 'play', transport: 'main' } });
    dom = openInspector(deck, 'transport.html', 'cue');
    const page = dom;
    await until('the connection line', () => (page.window.document.getElementById('connection')?.textContent ?? '').includes('Connected'));

    choose(page, 'host', 'http://127.0.0.1:9');
    await until('the address saved', () => deck.globalSettings.host === 'http://127.0.0.1:9');
    expect(deck.globalSettings).toEqual({ host: 'http://127.0.0.1:9' });
    const line = await until('the connection line for the new address', () => {
      const element = page.window.document.getElementById('connection');
      return element?.textContent?.startsWith('127.0.0.1:9') && element.className.includes('offline') ? element.textContent : undefined;
    });
    expect(line).not.toContain('Connected');
    await deck.waitForLatestImage('cue', (svg) => svg.includes('NO LINK'), 'the key following the new address');
  });

  it("never hands a key's answer to the inspector opened after it", async () => {
    deck.appear({ action: TRANSPORT, context: 'cue-a', settings: { command: 'gototrack', transport: 'main' } });
    deck.appear({ action: TRANSPORT, context: 'cue-b', settings: { command: 'gototrack', transport: 'main' }, column: 1 });
    // Slow answers, so the operator has moved on to key B before the plugin answers key A.
    await control(sim, { action: 'latency', ms: 600 });
    deck.inspectorAppear('cue-a');
    deck.sendToPlugin('cue-a', { request: 'tracks', requestId: 'same' });
    deck.inspectorDisappear('cue-a');
    deck.inspectorAppear('cue-b');
    deck.sendToPlugin('cue-b', { request: 'connection', requestId: 'same' });

    const answer = await deck.waitFor((commands) => commands.find((c) => c.event === 'sendToPropertyInspector'), "key B's answer");
    expect(answer.context).toBe('cue-b');
    expect(answer.payload).toMatchObject({ response: 'connection', requestId: 'same' });
    // Key A's request went first: its answer, had it been sent, would be in by now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(deck.sent('sendToPropertyInspector').map((c) => (c.payload as { response?: string }).response)).toEqual(['connection']);
  });

  it('gives every request of every page load an id of its own', async () => {
    deck.appear({ action: TRANSPORT, context: 'cue', settings: { command: 'gotosection', transport: 'main', track: 'Intro' } });
    const first = openInspector(deck, 'transport.html', 'cue');
    await until('the first page asking', () => deck.inspectorCommands.some((c) => c.event === 'sendToPlugin'));
    first.window.close();
    deck.inspectorDisappear('cue');
    dom = openInspector(deck, 'transport.html', 'cue');
    const count = deck.inspectorCommands.length;
    await until('the second page asking', () => deck.inspectorCommands.slice(count).some((c) => c.event === 'sendToPlugin'));

    const ids = deck.inspectorCommands.filter((c) => c.event === 'sendToPlugin').map((c) => (c.payload as { requestId?: unknown }).requestId);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
