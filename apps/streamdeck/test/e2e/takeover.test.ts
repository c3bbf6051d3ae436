/**
 * A director takeover at the desk, through the built plugin and the fake Stream Deck app, against a session of r34
 * machines whose names this computer cannot resolve: the keys are given the director's address and either the
 * machines' addresses (the hosts map of the global settings) or backup addresses (more machines of the session,
 * typed on the settings page); the director is switched off and another machine takes the role; a cue pressed after
 * that lands on the new director, once.
 */
import { endpoints, isPlaying } from '@stagelink/core';
import { simControl, startSimulator, takeLoopbackDnssdTurn, type Simulator } from '@stagelink/simulator';
import { readFileSync } from 'node:fs';
import type { JSDOM } from 'jsdom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeStreamDeck } from '../harness/fake-stream-deck.js';
import { choose, openInspector, until } from './inspector-dom.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';
/** The spec's bound for a client to follow a takeover and the settings page's 5 s between connection lines, with room for a busy machine. */
const FOLLOWED_AND_SHOWN_MS = 30_000;
// DNS-SD stays on loopback, which needs IFF_MULTICAST on lo (.ci/run sets it).
const loopbackMulticast = (Number(readFileSync('/sys/class/net/lo/flags', 'utf8')) & 0x1000) !== 0;
/** In the name of each test whose session announces itself over DNS-SD. */
const ANNOUNCED = 'found by DNS-SD';

describe('a cue after a director takeover', () => {
  let sim: Simulator;
  let deck: FakeStreamDeck;
  let dom: JSDOM | undefined;
  /** Gives back this machine's turn at DNS-SD on loopback, for a session that announces itself there. */
  let releaseTurn: (() => Promise<void>) | undefined;

  beforeEach(async ({ task }) => {
    const dnssd = task.name.includes(ANNOUNCED);
    // Other suites' simulators announce on loopback too: hold the turn while this one announces.
    if (dnssd) releaseTurn = await takeLoopbackDnssdTurn();
    sim = await startSimulator({ scenario: 'session', port: 0, drivePort: 0, dialect: 'r34', seed: 7, dnssd });
    deck = await FakeStreamDeck.start();
  });

  afterEach(async () => {
    dom?.window.close();
    await deck.close();
    await sim.close();
    await releaseTurn?.();
    releaseTurn = undefined;
  });

  const machine = (role: string) => {
    const found = sim.machines().find((candidate) => candidate.role === role);
    if (!found) throw new Error(`the session has a ${role}`);
    return found;
  };
  const main = () => sim.state.transports.list().find((transport) => transport.name === 'main');

  /**
   * The plugin launched on the session's director (with `globalSettings`), a play key shown and its settings page
   * open: answered once the page's connection line says which director the plugin's client follows.
   */
  const launchOnDirector = async (globalSettings: Record<string, string> = {}) => {
    const given = machine('director');
    Object.assign(deck.globalSettings, { host: given.url, ...globalSettings });
    await deck.launch();
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main' } });
    dom = openInspector(deck, 'transport.html', 'play');
    const page = dom;
    const directorShown = (hostname: string) => () => page.window.document.getElementById('connection')?.textContent?.includes(`director ${hostname}`);
    await until(`the connection line naming ${given.hostname}`, directorShown(given.hostname), FOLLOWED_AND_SHOWN_MS);
    return { given, page, directorShown };
  };

  /** The given director stops: the connection line names the machine that took over, and a press of play lands there once. */
  const stopDirectorThenPlay = async (given: { hostname: string }, directorShown: (hostname: string) => () => boolean | undefined) => {
    await simControl(machine('actor').url, { action: 'stopMachine', hostname: given.hostname });
    const successor = machine('director');
    expect(successor.hostname).not.toBe(given.hostname);
    await until(`the connection line naming ${successor.hostname}`, directorShown(successor.hostname), FOLLOWED_AND_SHOWN_MS);

    const cues = sim.arrivals.count('POST', endpoints.play.path);
    expect(isPlaying(main())).toBe(false);
    deck.press('play');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'play'), 'showOk after the takeover');
    // Only the director carries out a cue (the others refuse it): one arrival and a playing transport say it landed there.
    expect(sim.arrivals.count('POST', endpoints.play.path) - cues).toBe(1);
    expect(isPlaying(main())).toBe(true);
    expect(deck.sent('showAlert', 'play')).toEqual([]);
  };

  it('lands once on the machine that took over from the director the keys were given', async () => {
    // As the settings page stores the map: one NAME=address a line.
    const hosts = sim.machines().map(({ hostname, url }) => `${hostname}=${new URL(url).host}`).join('\n');
    const { given, directorShown } = await launchOnDirector({ hosts });
    await stopDirectorThenPlay(given, directorShown);
  });

  it('lands once on the machine that took over through the backup addresses typed on the settings page, with no machine addresses', async () => {
    const { given, page, directorShown } = await launchOnDirector();
    // The understudy and the rest of the session, one address a line, as the operator types them.
    const backups = sim.machines().filter(({ role }) => role !== 'director').map(({ url }) => url).join('\n');
    choose(page, 'backupHosts', backups);
    await until('the backup addresses saved', () => deck.globalSettings.backupHosts === backups);
    expect(deck.globalSettings).toEqual({ host: given.url, backupHosts: backups });
    await stopDirectorThenPlay(given, directorShown);
  });

  it.runIf(loopbackMulticast)(`lands once on the machine that took over, ${ANNOUNCED} on the interface typed on the settings page`, async () => {
    const { given, page, directorShown } = await launchOnDirector();
    // The desk's address on the show network, here loopback, where the session announces itself.
    const dnssd = page.window.document.getElementById('dnssd') as HTMLInputElement;
    dnssd.checked = true;
    dnssd.dispatchEvent(new page.window.Event('change'));
    choose(page, 'dnssdInterface', '127.0.0.1');
    await until('DNS-SD and its interface saved', () => deck.globalSettings.dnssd === true && deck.globalSettings.dnssdInterface === '127.0.0.1');
    await stopDirectorThenPlay(given, directorShown);
  });
});
