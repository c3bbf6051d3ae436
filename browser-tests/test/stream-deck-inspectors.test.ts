/**
 * The Stream Deck property inspectors in Chromium: each page connects through the fake Stream Deck app to the
 * built plugin, which reads the simulator; it shows the connection line, fills its dropdowns from the live
 * server, and what the operator picks becomes the action's settings. Also the picture of a deck for the README.
 */
import { MediaServer } from '@stagelink/core';
import { startSimulator, type Simulator } from '@stagelink/simulator';
import type { FakeStreamDeck, JsonObject } from '@stagelink/streamdeck/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { deckPage } from './support/deck-picture.js';
import { saveScreenshot } from './support/screenshots.js';
import { ACTIONS, openInspector, optionValues, startDeck } from './support/stream-deck.js';
import { until } from './support/until.js';

/** What one inspector page should show and save, worked out from the live server. */
interface InspectorPlan {
  /** Each dropdown's id and the values the server should fill it with. */
  lists: Record<string, string[]>;
  /** Fields to set, in order, as the operator would. */
  choices: [field: string, value: string][];
  settings: JsonObject;
}

interface InspectorCase {
  file: string;
  action: string;
  controller: 'Keypad' | 'Encoder';
  plan: (client: MediaServer) => Promise<InspectorPlan>;
}

async function transportNames(client: MediaServer): Promise<string[]> {
  const { transports, multitransports } = await client.transport.transports();
  return [...transports, ...multitransports].map((transport) => transport.name);
}

async function machineHostnames(client: MediaServer): Promise<string[]> {
  const session = await client.status.session();
  return [...(session.director ? [session.director] : []), ...session.actors, ...session.understudies].map((machine) => machine.hostname);
}

/** A value the server lists that is not the first: proves the choice was not a default. */
function second(values: string[], what: string): string {
  const value = values[1];
  if (value === undefined) throw new Error(`The simulator lists fewer than two ${what}: ${values.join(', ')}`);
  return value;
}

/** A key set to one machine of the session, which its machine dropdown lists in full; `more` sets its other fields. */
function machineKey(file: string, action: string, more: Pick<InspectorPlan, 'choices' | 'settings'> = { choices: [], settings: {} }): InspectorCase {
  return {
    file,
    action,
    controller: 'Keypad',
    plan: async (client) => {
      const machines = await machineHostnames(client);
      const machine = second(machines, 'machines');
      return { lists: { machine: machines }, choices: [['machine', machine], ...more.choices], settings: { machine, ...more.settings } };
    },
  };
}

const INSPECTORS: InspectorCase[] = [
  {
    file: 'transport.html',
    action: ACTIONS.transport,
    controller: 'Keypad',
    plan: async (client) => {
      const tracks = (await client.transport.tracks()).map((track) => track.name);
      const track = second(tracks, 'tracks');
      return {
        lists: { transport: await transportNames(client), track: tracks },
        choices: [['command', 'gototrack'], ['transport', 'main'], ['track', track], ['playmode', 'Loop']],
        settings: { command: 'gototrack', transport: 'main', track, playmode: 'Loop' },
      };
    },
  },
  machineKey('fps.html', ACTIONS.fps, { choices: [['target', '60']], settings: { target: 60 } }),
  machineKey('health.html', ACTIONS.health),
  {
    file: 'level.html',
    action: ACTIONS.level,
    controller: 'Encoder',
    plan: async (client) => {
      const transports = await transportNames(client);
      const transport = second(transports, 'transports');
      return {
        lists: { transport: transports },
        choices: [['property', 'brightness'], ['transport', transport], ['step', '0.05']],
        settings: { property: 'brightness', transport, step: 0.05 },
      };
    },
  },
  {
    file: 'clock.html',
    action: ACTIONS.clock,
    controller: 'Keypad',
    plan: async (client) => {
      const transports = await transportNames(client);
      const transport = second(transports, 'transports');
      return {
        lists: { transport: transports },
        choices: [['transport', transport], ['show', 'nextCueIn'], ['warnAt', '20'], ['flashAt', '8']],
        settings: { transport, show: 'nextCueIn', warnAt: 20, flashAt: 8 },
      };
    },
  },
];

/** Sets a field as the operator does: picks an option, or types and leaves the field. */
async function choose(page: Page, field: string, value: string): Promise<void> {
  const element = page.locator(`#${field}`);
  if ((await element.evaluate((node) => node.tagName)) === 'SELECT') await element.selectOption(value);
  else {
    await element.fill(value);
    await element.press('Tab');
  }
}

async function connectionLine(page: Page): Promise<string> {
  return (await page.locator('#connection').textContent()) ?? '';
}

describe('the Stream Deck property inspectors', () => {
  let browser: Browser;
  let sim: Simulator;
  let client: MediaServer;
  let deck: FakeStreamDeck;
  let page: Page | undefined;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 7 });
    client = new MediaServer({ host: sim.mediaServer.url });
    deck = await startDeck(sim.mediaServer.url);
    pageErrors.length = 0;
  });

  afterEach(async () => {
    await page?.close();
    page = undefined;
    await deck?.close();
    await client?.close();
    await sim?.close();
    expect(pageErrors, 'script errors in the page').toEqual([]);
  });

  async function open(file: string, context: string): Promise<Page> {
    page = await openInspector(browser, deck, file, context);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return page;
  }

  it.each(INSPECTORS)('$file connects, fills its dropdowns from the server and saves the choices', async ({ file, action, controller, plan }) => {
    const { lists, choices, settings } = await plan(client);
    deck.appear({ action, context: 'key', controller, settings: {} });
    const inspector = await open(file, 'key');

    const line = await until(`the connection line of ${file} to say "Connected"`, async () => {
      const text = await connectionLine(inspector);
      return text.includes('Connected') ? text : undefined;
    });
    expect(line).toContain(new URL(sim.mediaServer.url).host);
    expect(await inspector.locator('#host').inputValue()).toBe(sim.mediaServer.url);
    for (const [select, values] of Object.entries(lists)) {
      await until(`the ${select} dropdown of ${file} to be filled`, async () => (await optionValues(inspector, select)).length > 0);
      expect(await optionValues(inspector, select), `the ${select} dropdown`).toEqual(values);
    }

    for (const [field, value] of choices) await choose(inspector, field, value);
    // Each change sends the whole settings object, so once the last choice arrives every earlier one is there too.
    const last = choices.at(-1)?.[0] ?? '';
    await until(`the ${last} setting of the ${action} key`, () => deck.keys.get('key')?.settings[last] !== undefined);
    expect(deck.keys.get('key')?.settings).toEqual(settings);
    await saveScreenshot(inspector, `inspector-${file.replace('.html', '')}`);
  });

  it("fills the transport inspector's section and note dropdowns from the track chosen", async () => {
    const { annotations } = await client.transport.annotations({ name: 'Intro' });
    deck.appear({ action: ACTIONS.transport, context: 'key', settings: {} });
    const inspector = await open('transport.html', 'key');
    await until('the tracks dropdown', async () => (await optionValues(inspector, 'track')).includes('Intro'));
    for (const [field, value] of [['command', 'gotosection'], ['transport', 'main'], ['track', 'Intro']] as const) await choose(inspector, field, value);
    const sections = annotations.sections.map((section) => String(section.index));
    await until('the sections of "Intro"', async () => (await optionValues(inspector, 'section')).length > 0);
    expect(await optionValues(inspector, 'section')).toEqual(sections);
    await choose(inspector, 'section', second(sections, 'sections'));
    await until('the section setting', () => deck.keys.get('key')?.settings.section !== undefined);
    // The key keeps the section's index, as a number.
    expect(deck.keys.get('key')?.settings).toMatchObject({ command: 'gotosection', transport: 'main', track: 'Intro', section: 1 });

    await choose(inspector, 'command', 'gotonote');
    await until('the notes of "Intro"', async () => (await optionValues(inspector, 'note')).length > 0);
    expect(await optionValues(inspector, 'note')).toEqual(annotations.notes.map((note) => note.text));
  });

  it('fires the cue chosen in the transport inspector from its key', async () => {
    const track = second((await client.transport.tracks()).map((entry) => entry.name), 'tracks');
    deck.appear({ action: ACTIONS.transport, context: 'cue', settings: {} });
    const inspector = await open('transport.html', 'cue');
    await until('the tracks dropdown', async () => (await optionValues(inspector, 'track')).includes(track));
    for (const [field, value] of [['command', 'gototrack'], ['transport', 'main'], ['track', track], ['playmode', 'play']] as const) await choose(inspector, field, value);
    await deck.waitForLatestImage('cue', (svg) => svg.includes(track), 'the key showing the chosen track', 30_000);

    deck.press('cue');

    await until('the simulator to play the chosen track on "main"', async () => {
      const now = (await client.transport.transports()).transports.find((transport) => transport.name === 'main');
      return now?.currentTrack.name === track && now.playmode === 'Play';
    });
  });

  it('draws the keys of a deck (the README picture)', async () => {
    const machine = second(await machineHostnames(client), 'machines');
    // Once the play key is pressed, every cue key on "main" shows that it plays.
    const playing = (svg: string): boolean => svg.includes('PLAYING');
    const fpsShown = (svg: string): boolean => />\d+(\.\d)? FPS</.test(svg);
    const severityShown = (svg: string): boolean => />(OK|BUSY|WARNING|ERROR|OFFLINE)</.test(svg);
    const keys: { context: string; action: string; settings: JsonObject; ready: (svg: string) => boolean }[] = [
      { context: 'play', action: ACTIONS.transport, settings: { command: 'play', transport: 'main' }, ready: playing },
      { context: 'stop', action: ACTIONS.transport, settings: { command: 'stop', transport: 'main' }, ready: playing },
      { context: 'act1', action: ACTIONS.transport, settings: { command: 'gototrack', transport: 'main', track: 'Act 1', playmode: 'play' }, ready: playing },
      { context: 'next', action: ACTIONS.transport, settings: { command: 'gotonexttrack', transport: 'main' }, ready: playing },
      { context: 'fps', action: ACTIONS.fps, settings: { target: 60 }, ready: fpsShown },
      { context: 'fps-remote', action: ACTIONS.fps, settings: { machine, target: 60 }, ready: fpsShown },
      { context: 'health', action: ACTIONS.health, settings: {}, ready: severityShown },
      { context: 'health-machine', action: ACTIONS.health, settings: { machine }, ready: severityShown },
    ];
    keys.forEach(({ context, action, settings }, index) => deck.appear({ action, context, settings, column: index % 4, row: Math.floor(index / 4) }));
    await deck.waitForLatestImage('play', (svg) => svg.includes('PLAY'), 'the play key', 30_000);
    deck.press('play');
    const faces = [];
    for (const { context, ready } of keys) faces.push(await deck.waitForLatestImage(context, ready, 'a live face', 30_000));

    page = await browser.newPage({ viewport: { width: 520, height: 280 }, deviceScaleFactor: 2 });
    await page.setContent(deckPage([faces.slice(0, 4), faces.slice(4)]));
    await saveScreenshot(page.locator('.deck'), 'deck');
  });
});
