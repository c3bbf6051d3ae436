/**
 * The machine addresses of the global settings (the hosts map), through the real settings page, the fake Stream
 * Deck app and the built plugin, against a session of r34 machines whose names this computer cannot resolve
 * (DIRECTOR01, ACTOR01): a key set to an actor's address follows the director only once the map gives the
 * director's address.
 */
import { MediaServer } from '@stagelink/core';
import { startSimulator, type Simulator } from '@stagelink/simulator';
import type { JSDOM } from 'jsdom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeStreamDeck } from '../harness/fake-stream-deck.js';
import { choose, openInspector, until } from './inspector-dom.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';
const HEALTH = 'com.stagelink.mediaserver.health';

describe('machine addresses for names that do not resolve', () => {
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
    await deck.close();
    await director.close();
    await sim.close();
  });

  const machine = (role: string) => {
    const found = sim.machines().find((candidate) => candidate.role === role);
    if (!found) throw new Error(`the session has a ${role}`);
    return found;
  };

  /** The page has connected: its connection line says something other than that it waits for the plugin. */
  const connected = (page: JSDOM): Promise<string> =>
    until('the first connection line', () => {
      const line = page.window.document.getElementById('connection')?.textContent ?? '';
      return line.includes('waiting for the plugin') ? undefined : line;
    });

  /** The connection line once it says a setting cannot be used. */
  const invalidSetting = (page: JSDOM): Promise<string | null> =>
    until('the connection line', () => {
      const element = page.window.document.getElementById('connection');
      return element?.className.includes('invalid') ? element.textContent : undefined;
    });

  async function mainPlaymode(): Promise<string | undefined> {
    return (await director.transport.transports()).transports.find((transport) => transport.name === 'main')?.playmode;
  }

  it("lets a key set to an actor's address cue the director once the settings page gives the director's address", async () => {
    const actor = machine('actor');
    const directing = machine('director');
    expect(directing.hostname).toBe('DIRECTOR01');
    deck.globalSettings.host = actor.url;
    await deck.launch();
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main' } });

    // Without the map the director cannot be reached by its name, and the actor refuses cues.
    deck.press('play');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showAlert' && c.context === 'play'), 'showAlert without the map');
    expect(await mainPlaymode()).toBe('Stop');

    dom = openInspector(deck, 'transport.html', 'play');
    const page = dom;
    await connected(page);
    const hosts = `${directing.hostname}=${new URL(directing.url).host}`;
    choose(page, 'hosts', hosts);
    await until('the map saved', () => deck.globalSettings.hosts === hosts);
    expect(deck.globalSettings).toEqual({ host: actor.url, hosts });
    await until('the connection line naming the director, followed from the actor', () => {
      const line = page.window.document.getElementById('connection')?.textContent ?? '';
      return line.includes('director DIRECTOR01') && line.includes(`followed from ${new URL(actor.url).hostname}`);
    });

    deck.press('play');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'play'), 'showOk with the map');
    expect(await mainPlaymode()).toBe('Play');
  });

  it('says in the connection line, and on the key, what is wrong with a map that is not NAME=address lines', async () => {
    deck.globalSettings.host = machine('actor').url;
    await deck.launch();
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main' } });
    dom = openInspector(deck, 'transport.html', 'play');
    const page = dom;
    await connected(page);

    choose(page, 'hosts', 'DIRECTOR01 127.0.0.2');
    const line = await invalidSetting(page);
    expect(line).toContain('Machine addresses: "DIRECTOR01 127.0.0.2" is not HOSTNAME=address');
    await deck.waitForLatestImage('play', (svg) => svg.includes('>SET UP<'), 'the set-up face');
  });

  it("says on the health key's settings page what is wrong with its management controllers and hardware period, and keeps them", async () => {
    deck.globalSettings.host = machine('director').url;
    await deck.launch();
    deck.appear({ action: HEALTH, context: 'health', settings: {} });
    dom = openInspector(deck, 'health.html', 'health');
    const page = dom;
    await connected(page);

    choose(page, 'smcs', 'ACTOR01 10.0.1.6');
    expect(await invalidSetting(page)).toContain('Hardware health: "ACTOR01 10.0.1.6" is not HOSTNAME=address');
    expect(deck.globalSettings.smcs).toBe('ACTOR01 10.0.1.6');

    choose(page, 'smcs', 'ACTOR01=10.0.1.6');
    choose(page, 'hardwareEvery', '0.2');
    await until('the line naming the hardware period', () => {
      const element = page.window.document.getElementById('connection');
      return element?.className.includes('invalid') && element.textContent?.includes('at least 1 s');
    });

    choose(page, 'hardwareEvery', '15');
    await until('the line online again', () => page.window.document.getElementById('connection')?.className.includes('online'));
  });

  it('keeps the backup addresses and DNS-SD typed on the settings page, and says what is wrong with an address that is none', async () => {
    deck.globalSettings.host = machine('director').url;
    await deck.launch();
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main' } });
    dom = openInspector(deck, 'transport.html', 'play');
    const page = dom;
    await connected(page);

    const dnssd = page.window.document.getElementById('dnssd') as HTMLInputElement;
    expect(dnssd.checked).toBe(false);
    dnssd.checked = true;
    dnssd.dispatchEvent(new page.window.Event('change'));
    await until('DNS-SD saved', () => deck.globalSettings.dnssd === true);

    choose(page, 'backupHosts', '127.0.0.9\nftp://127.0.0.3');
    const line = await invalidSetting(page);
    expect(line).toContain('Backup addresses: Address 2 of the list: "ftp://127.0.0.3" uses ftp');
    await deck.waitForLatestImage('play', (svg) => svg.includes('>SET UP<'), 'the set-up face');

    // A page opened again shows what was saved: the box ticked, the addresses as typed.
    page.window.close();
    dom = openInspector(deck, 'transport.html', 'play');
    const again = dom;
    await until('the saved settings shown', () => (again.window.document.getElementById('dnssd') as HTMLInputElement).checked);
    expect((again.window.document.getElementById('backupHosts') as HTMLTextAreaElement).value).toBe('127.0.0.9\nftp://127.0.0.3');
  });

  it('keeps the DNS-SD interface typed on the settings page, and says what is wrong with one that is no IPv4 address', async () => {
    deck.globalSettings.host = machine('director').url;
    deck.globalSettings.dnssd = true;
    await deck.launch();
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main' } });
    dom = openInspector(deck, 'transport.html', 'play');
    const page = dom;
    await connected(page);

    choose(page, 'dnssdInterface', 'eth0');
    await until('the interface saved', () => deck.globalSettings.dnssdInterface === 'eth0');
    const line = await invalidSetting(page);
    expect(line).toContain('DNS-SD interface: "eth0" is not an IPv4 address: give this computer\'s address on the show network');
    await deck.waitForLatestImage('play', (svg) => svg.includes('>SET UP<'), 'the set-up face');

    // The show network's address: the keys work again, and cue the director.
    choose(page, 'dnssdInterface', '127.0.0.1');
    await until('the connection line connected again', () => !page.window.document.getElementById('connection')?.className.includes('invalid'));
    deck.press('play');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'play'), 'showOk on the show network');
    expect(await mainPlaymode()).toBe('Play');
  });
});
