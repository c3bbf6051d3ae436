/**
 * A machine addresses line (the hosts map of the global settings) whose address is none, as a desk's saved settings
 * may hold it, through the built plugin, the fake Stream Deck app and the real settings page, against a session of
 * r34 machines: the page and the key say which line is wrong, a press sends nothing, the plugin keeps running, and
 * the key cues once the line is fixed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { endpoints, MediaServer } from '@stagelink/core';
import { startSimulator, type Simulator } from '@stagelink/simulator';
import type { JSDOM } from 'jsdom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeStreamDeck, PLUGIN_DIR } from '../harness/fake-stream-deck.js';
import { choose, openInspector, until } from './inspector-dom.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';
const BAD_LINE = 'ACTOR01=10.0.0.256';
const NAMED = 'Machine addresses: The address given for ACTOR01 in hosts ("10.0.0.256") is not an address or address:port';

describe('a machine addresses line whose address is none', () => {
  let sim: Simulator;
  let deck: FakeStreamDeck;
  let director: MediaServer;
  let dom: JSDOM | undefined;

  beforeEach(async () => {
    sim = await startSimulator({ scenario: 'session', port: 0, drivePort: 0, dialect: 'r34', seed: 7 });
    director = new MediaServer({ host: sim.mediaServer.url });
    deck = await FakeStreamDeck.start();
  });

  afterEach(async () => {
    dom?.window.close();
    dom = undefined;
    await deck.close();
    await director.close();
    await sim.close();
  });

  /** Where each machine of the session is, one HOSTNAME=address a line, as the settings page stores them. */
  const hostsLines = (): string => sim.machines().map(({ hostname, url }) => `${hostname}=${new URL(url).host}`).join('\n');
  const actor = () => {
    const found = sim.machines().find(({ role }) => role === 'actor');
    if (!found) throw new Error('the session has an actor');
    return found;
  };

  /** The connection line of the page once it says a setting cannot be used. */
  const invalidSetting = (page: JSDOM): Promise<string | null> =>
    until('the connection line naming a setting', () => {
      const element = page.window.document.getElementById('connection');
      return element?.className.includes('invalid') ? element.textContent : undefined;
    });

  const pluginLog = (): string => {
    try {
      return readFileSync(join(deck.pluginFolder ?? PLUGIN_DIR, 'logs', 'com.stagelink.mediaserver.0.log'), 'utf8');
    } catch {
      return '';
    }
  };

  async function mainPlaymode(): Promise<string | undefined> {
    return (await director.transport.transports()).transports.find((transport) => transport.name === 'main')?.playmode;
  }

  it('is named on the settings page and the key shows SET UP; the plugin keeps running and cues once the line is fixed', async () => {
    // Saved by an earlier version of the plugin, which took the line as it was typed.
    deck.globalSettings.host = actor().url;
    deck.globalSettings.hosts = `${hostsLines()}\n${BAD_LINE}`;
    await deck.launch();
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main' } });
    await deck.waitForLatestImage('play', (svg) => svg.includes('>SET UP<'), 'the set-up face');

    dom = openInspector(deck, 'transport.html', 'play');
    const page = dom;
    expect(await invalidSetting(page)).toContain(NAMED);

    // A press sends nothing: the key alerts, and the log says why.
    const cues = sim.arrivals.count('POST', endpoints.play.path);
    deck.press('play');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showAlert' && c.context === 'play'), 'showAlert with the bad line');
    await expect.poll(pluginLog, { timeout: 5000 }).toContain(`Cue not sent: ${NAMED}`);
    expect(await mainPlaymode()).toBe('Stop');
    expect(sim.arrivals.count('POST', endpoints.play.path)).toBe(cues);
    expect(deck.exitCode).toBeNull();

    choose(page, 'hosts', hostsLines());
    await until('the connection line no longer naming a setting', () => !page.window.document.getElementById('connection')?.className.includes('invalid'));
    deck.press('play');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'play'), 'showOk once the line is fixed');
    expect(await mainPlaymode()).toBe('Play');
    expect(deck.exitCode).toBeNull();
  });

  it('is named on the settings page as soon as it is typed there, and the key shows SET UP', async () => {
    deck.globalSettings.host = actor().url;
    deck.globalSettings.hosts = hostsLines();
    await deck.launch();
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main' } });
    dom = openInspector(deck, 'transport.html', 'play');
    const page = dom;
    await until('the connection line naming the director', () => page.window.document.getElementById('connection')?.textContent?.includes('director DIRECTOR01'));

    choose(page, 'hosts', `${hostsLines()}\n${BAD_LINE}`);
    await until('the line saved', () => deck.globalSettings.hosts === `${hostsLines()}\n${BAD_LINE}`);
    expect(await invalidSetting(page)).toContain(NAMED);
    await deck.waitForLatestImage('play', (svg) => svg.includes('>SET UP<'), 'the set-up face');
    expect(deck.exitCode).toBeNull();
  });
});
