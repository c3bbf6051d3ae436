/**
 * The built plugin, launched as the Stream Deck app launches it, driven through the fake app over a real
 * WebSocket, against the simulator: on Node 20 and on Node 24.
 */
import { classifyFps, MediaServer } from '@stagelink/core';
import type { LogEntry, Simulator } from '@stagelink/simulator';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeStreamDeck, PLUGIN_DIR, type JsonObject } from '../harness/fake-stream-deck.js';
import { fpsAlertColour, palette } from '../../src/render/palette.js';
import { control, portOf, startSim } from './simulator.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';
const FPS = 'com.stagelink.mediaserver.fps';
const HEALTH = 'com.stagelink.mediaserver.health';
const LEVEL = 'com.stagelink.mediaserver.level';

/** The number an FPS key draws and the colour it draws it on. */
function fpsDrawn(svg: string): { fps: number; background: string } | undefined {
  const fps = />(\d+(?:\.\d)?) FPS</.exec(svg)?.[1];
  const background = /<rect x="0" y="0" width="144" height="144" fill="(#[0-9a-f]{6})"/.exec(svg)?.[1];
  return fps === undefined || background === undefined ? undefined : { fps: Number(fps), background };
}

/** What the running plugin logged: the SDK writes it to logs/ in the plugin folder, this launch's file first. */
function pluginLog(deck: FakeStreamDeck): string {
  const file = join(deck.pluginFolder ?? PLUGIN_DIR, 'logs', 'com.stagelink.mediaserver.0.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

beforeAll(() => {
  if (!existsSync(join(PLUGIN_DIR, 'bin', 'plugin.js'))) throw new Error('Build the plugin first: pnpm --filter @stagelink/streamdeck build');
});

describe('the plugin', () => {
  let deck: FakeStreamDeck;
  let sim: Simulator;
  let client: MediaServer;
  let requests: LogEntry[];

  beforeEach(async () => {
    requests = [];
    sim = await startSim(0, (entry) => entry.event === 'request' && requests.push(entry));
    client = new MediaServer({ host: sim.mediaServer.url });
    deck = await FakeStreamDeck.start();
    deck.globalSettings.host = sim.mediaServer.url;
    await deck.launch();
  });

  afterEach(async () => {
    await deck.close();
    await client.close();
    await sim.close();
  });

  async function playmodeOf(transport: string): Promise<string | undefined> {
    const { transports } = await client.transport.transports();
    return transports.find((candidate) => candidate.name === transport)?.playmode;
  }

  it('starts the transport from a play key and shows OK', async () => {
    deck.appear({ action: TRANSPORT, context: 'play-main', settings: { command: 'play', transport: 'main' } });
    await deck.waitForImage('play-main', (svg) => svg.includes('PLAY') && svg.includes('main'), 'the cue face');
    expect(await playmodeOf('main')).toBe('Stop');

    deck.press('play-main');

    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'play-main'), 'showOk');
    expect(deck.sent('showAlert', 'play-main')).toHaveLength(0);
    expect(await playmodeOf('main')).toBe('Play');
    await deck.waitForLatestImage('play-main', (svg) => svg.includes('PLAYING'), 'the playing face');
    // Playing is drawn in the face: the key keeps its one manifest state, as a multi-action step expects.
    expect(deck.sent('setState')).toEqual([]);
  });

  it('logs a key that is not set up yet at INFO, keeping WARN for what goes wrong', async () => {
    deck.appear({ action: TRANSPORT, context: 'blank', settings: { transport: 'main' } });
    await deck.waitForImage('blank', (svg) => svg.includes('SET UP'), 'the set-up face');
    await expect.poll(() => /INFO +transport: TRANSPORT key: Choose a command\./.test(pluginLog(deck)), { timeout: 10_000 }).toBe(true);
    expect(pluginLog(deck)).not.toMatch(/WARN +transport: TRANSPORT key: Choose a command/);
  });

  it('sets a fixed brightness from a key', async () => {
    deck.appear({ action: TRANSPORT, context: 'blackout', settings: { command: 'brightness', transport: 'main', brightness: 0 } });
    await deck.waitForImage('blackout', (svg) => svg.includes('BRIGHTNESS') && svg.includes('0 %'), 'the level face');
    deck.press('blackout');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'blackout'), 'showOk');
    const { transports } = await client.transport.transports();
    expect(transports.find((candidate) => candidate.name === 'main')?.brightness).toBe(0);
  });

  it('goes to the section of the track a key names, from another track', async () => {
    // The last track of main's set list; main starts on the first.
    const track = 'Finale';
    expect(sim.state.transports.positionOf({ name: 'main' }).track.name).not.toBe(track);
    const { annotations } = await client.transport.annotations({ name: track });
    const section = annotations.sections.at(-1);
    if (!section) throw new Error(`The simulator's track ${track} has no sections`);
    const settings = { command: 'gotosection', transport: 'main', track, section: String(section.index), playmode: 'stop' };
    deck.appear({ action: TRANSPORT, context: 'to-section', settings });
    await deck.waitForImage('to-section', (svg) => svg.includes(`>${track}:<`) && svg.includes(`>Section ${section.index}<`), 'the track on the face');

    deck.press('to-section');

    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'to-section'), 'showOk');
    expect(sim.state.transports.positionOf({ name: 'main' })).toMatchObject({ track: { name: track }, time: section.time, playmode: 'stop' });
  });

  it('shows an alert when the server is down, lives on, and fires again once it is back', async () => {
    deck.appear({ action: TRANSPORT, context: 'play-main', settings: { command: 'play', transport: 'main' } });
    await deck.waitForImage('play-main', (svg) => svg.includes('main'), 'the cue face');
    const port = portOf(sim);
    await client.close();
    await sim.close();

    deck.press('play-main');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showAlert' && c.context === 'play-main'), 'showAlert');
    deck.press('play-main');
    await deck.waitFor(() => deck.sent('showAlert', 'play-main').length >= 2 || undefined, 'a second showAlert');
    expect(deck.sent('showOk', 'play-main')).toHaveLength(0);
    await deck.waitForLatestImage('play-main', (svg) => svg.includes('NO LINK'), 'the no-link face');

    sim = await startSim(port);
    client = new MediaServer({ host: sim.mediaServer.url });
    // Pressed once the key shows the server back: before that, a cue behind a refused one is refused at once.
    await deck.waitForLatestImage('play-main', (svg) => !svg.includes('NO LINK'), 'the cue face back', 30_000);
    deck.press('play-main');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'play-main'), 'showOk after the restart', 20_000);
    expect(await playmodeOf('main')).toBe('Play');
  });

  it.each([
    [60, 'as core classifies it'],
    [120, 'in the error colour'],
  ])("draws the simulator's FPS against a target of %i, %s", async (target) => {
    deck.appear({ action: FPS, context: 'fps', settings: { target } });
    // The simulator runs near 59.94 with jitter and the odd dip into the high forties; the key colours the
    // average of its last samples, so a shown value and its colour agree once the average has settled.
    const svg = await deck.waitForLatestImage(
      'fps',
      (image) => {
        const drawn = fpsDrawn(image);
        return drawn !== undefined && drawn.fps >= 40 && drawn.fps <= 70 && drawn.background === fpsAlertColour(classifyFps(drawn.fps, target));
      },
      `a live FPS value between 40 and 70 on its alert colour for target ${target}`,
      15_000,
    );
    if (target === 120) expect(fpsDrawn(svg)?.background).toBe(palette.error);
  });

  it('shows the FPS, turns to NO LINK when the simulator stops, and recovers after it restarts', async () => {
    deck.appear({ action: FPS, context: 'fps', settings: { target: 60 } });
    const live = (svg: string): boolean => fpsDrawn(svg) !== undefined;
    await deck.waitForLatestImage('fps', live, 'a live FPS value', 15_000);

    const port = portOf(sim);
    await client.close();
    await sim.close();
    await deck.waitForLatestImage('fps', (svg) => svg.includes('>NO LINK<'), 'the no-link face', 15_000);

    sim = await startSim(port);
    client = new MediaServer({ host: sim.mediaServer.url });
    await deck.waitForLatestImage('fps', live, 'a live FPS value after the restart', 15_000);
  });

  it('shares one live socket per server between FPS keys and releases it when they leave the screen', async () => {
    const { actors } = await client.status.session();
    const remote = actors[0]?.hostname ?? 'actor-1';
    deck.appear({ action: FPS, context: 'fps-a', settings: { target: 60 } });
    deck.appear({ action: FPS, context: 'fps-b', settings: {}, column: 1 });
    deck.appear({ action: FPS, context: 'fps-remote', settings: { machine: remote }, column: 2 });
    deck.appear({ action: HEALTH, context: 'health', settings: {}, column: 3 });
    const live = (svg: string): boolean => fpsDrawn(svg) !== undefined;
    for (const context of ['fps-a', 'fps-b', 'fps-remote']) await deck.waitForLatestImage(context, live, `a live FPS value on ${context}`, 15_000);
    // The local FPS (shared by two keys), the remote machine's FPS, and the director's list of monitored machines
    // the remote key's monitor name comes from.
    expect(sim.live.stats()).toMatchObject({ sockets: 1, subscriptions: 3 });

    deck.disappear('fps-a');
    deck.disappear('fps-b');
    deck.disappear('fps-remote');
    await expect.poll(() => sim.live.stats(), { timeout: 5000 }).toMatchObject({ sockets: 0, subscriptions: 0 });
  });

  it('repaints a key at most 4 times a second, and not at all once it is hidden', async () => {
    deck.appear({ action: FPS, context: 'fps', settings: { target: 60 } });
    await deck.waitForLatestImage('fps', (svg) => fpsDrawn(svg) !== undefined, 'a live FPS value', 15_000);
    // Values arrive every 100 ms; count the frames over a 3 s window, with generous bounds.
    const from = deck.sent('setImage', 'fps').length;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const frames = deck.sent('setImage', 'fps').slice(from);
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.length).toBeLessThanOrEqual(3 * 4 + 2);
    const images = frames.map((frame) => JSON.stringify(frame.payload));
    for (let index = 1; index < images.length; index++) expect(images[index]).not.toBe(images[index - 1]);

    deck.disappear('fps');
    // A frame the plugin sent before it heard of the disappearance may still be on its way on a busy machine.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const hiddenFrom = deck.commands.length;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(deck.commands.slice(hiddenFrom).filter((c) => c.context === 'fps')).toEqual([]);

    deck.appear({ action: FPS, context: 'fps', settings: { target: 60 } });
    await deck.waitFor(() => deck.commands.slice(hiddenFrom).find((c) => c.event === 'setImage' && c.context === 'fps'), 'a repaint on appearing');
  });

  it('lights a key while its transport loops or plays a section, as shipping directors name those playmodes', async () => {
    deck.appear({ action: TRANSPORT, context: 'loop-main', settings: { command: 'playloopsection', transport: 'main' } });
    await deck.waitForImage('loop-main', (svg) => svg.includes('>LOOP SECT.<'), 'the cue face');
    deck.press('loop-main');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'loop-main'), 'showOk');
    expect(await playmodeOf('main')).toBe('Loop');
    await deck.waitForLatestImage('loop-main', (svg) => svg.includes('PLAYING'), 'the playing face');
  });

  it('lights the key of a looping transport and of the multitransport it belongs to, and not of a stopped one', async () => {
    const { transports, multitransports } = await client.transport.transports();
    const looping = transports.find((transport) => transport.playmode === 'Loop');
    const stopped = transports.find((transport) => transport.playmode === 'Stop');
    const multi = multitransports.find((candidate) => looping && candidate.transports.includes(looping.uid));
    if (!looping || !stopped || !multi) throw new Error('The simulated session has a looping transport in a multitransport, and a stopped one');
    deck.appear({ action: TRANSPORT, context: 'looping', settings: { command: 'play', transport: looping.name } });
    deck.appear({ action: TRANSPORT, context: 'multi', settings: { command: 'play', transport: multi.name }, column: 1 });
    deck.appear({ action: TRANSPORT, context: 'stopped', settings: { command: 'play', transport: stopped.name }, column: 2 });
    await deck.waitForLatestImage('looping', (svg) => svg.includes('PLAYING'), `${looping.name} playing`);
    await deck.waitForLatestImage('multi', (svg) => svg.includes('PLAYING'), `${multi.name} playing`);
    await deck.waitForLatestImage('stopped', (svg) => svg.includes('PLAY') && svg.includes(stopped.name), `${stopped.name} painted`);
    expect(deck.latestImage('stopped')).not.toContain('PLAYING');
  });

  it('lands a go-to cue with the playmode play, and section 1 by its index', async () => {
    // On r34 the director calls itself DIRECTOR01, a name this machine cannot resolve: the keys keep cueing it at
    // the address the deck was given.
    if (sim.options.dialect === 'r34') expect((await client.status.session()).director?.hostname).toBe('DIRECTOR01');
    deck.appear({ action: TRANSPORT, context: 'to-act', settings: { command: 'gototrack', transport: 'main', track: 'Intro', playmode: 'play' } });
    // The index as the settings page saves it: a number (older keys keep decimal text, tested above).
    deck.appear({ action: TRANSPORT, context: 'section-1', settings: { command: 'gotosection', transport: 'main', section: 1 }, column: 1 });
    await deck.waitForImage('section-1', (svg) => svg.includes('>Section 1<'), 'the section face');
    deck.press('to-act');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'to-act'), 'showOk of the go-to cue');
    expect(await playmodeOf('main')).toBe('Play');
    deck.press('section-1');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'section-1'), 'showOk of the section cue');
    const { annotations } = await client.transport.annotations({ name: 'Intro' });
    // Playing on from the start of section 1: at or just past its time.
    const { time } = sim.state.transports.positionOf({ name: 'main' });
    expect(time).toBeGreaterThanOrEqual(annotations.sections[1]?.time ?? Infinity);
    expect(time).toBeLessThan(annotations.sections[2]?.time ?? Infinity);
  });

  it("shows a remote machine's FPS for its hostname given in lower case", async () => {
    const { actors } = await client.status.session();
    const hostname = actors[0]?.hostname.toLowerCase() ?? '';
    // r34 machine names are upper case (ACTOR01) and their monitors are named after them (ACTOR01:d3).
    if (sim.options.dialect === 'r34') expect(actors[0]?.hostname).not.toBe(hostname);
    deck.appear({ action: FPS, context: 'fps-actor', settings: { machine: hostname } });
    await deck.waitForLatestImage('fps-actor', (svg) => fpsDrawn(svg) !== undefined, `the FPS of ${hostname}`);
  });

  it("shows the director's own FPS for its hostname in lower case, although a director does not monitor itself", async () => {
    const hostname = (await client.status.session()).director?.hostname.toLowerCase() ?? '';
    deck.appear({ action: FPS, context: 'fps-director', settings: { machine: hostname } });
    await deck.waitForLatestImage('fps-director', (svg) => fpsDrawn(svg) !== undefined, `the FPS of ${hostname}`, 15_000);
  });

  it('keeps cueing and lighting keys for a director whose machine name this computer cannot resolve, at the address set', async () => {
    const director = (await client.status.session()).director?.hostname ?? '';
    if (sim.options.dialect === 'r34') expect(director).toBe('DIRECTOR01');
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main' } });
    deck.appear({ action: TRANSPORT, context: 'stop', settings: { command: 'stop', transport: 'main' }, column: 1 });
    await deck.waitForImage('play', (svg) => svg.includes('PLAY') && svg.includes('main'), 'the cue face');
    deck.press('play');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'play'), 'showOk of play');
    await deck.waitForLatestImage('play', (svg) => svg.includes('PLAYING'), 'the playing face');
    // Several transport polls later the key still reads the director at the address it was given.
    await new Promise((resolve) => setTimeout(resolve, 4500));
    expect(deck.latestImage('play')).toContain('PLAYING');
    expect(deck.images('play').some((svg) => svg.includes('NO LINK'))).toBe(false);
    deck.press('stop');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'stop'), 'showOk of stop');
    expect(await playmodeOf('main')).toBe('Stop');
    await deck.waitForLatestImage('play', (svg) => !svg.includes('PLAYING'), 'the play key going out');

    deck.inspectorAppear('play');
    deck.sendToPlugin('play', { request: 'connection', requestId: 'director' });
    const answer = await deck.waitFor(
      (commands) => commands.find((c) => c.event === 'sendToPropertyInspector' && (c.payload as JsonObject).requestId === 'director'),
      'the connection answer',
    );
    expect(answer.payload).toMatchObject({ state: 'online' });
    expect((answer.payload as { message?: string }).message).toContain(`director ${director}`);
  });

  it("says in the director's words why a speed key was refused, and sets the speed once the project allows it", async () => {
    deck.appear({ action: TRANSPORT, context: 'half-speed', settings: { command: 'speed', transport: 'main', speed: 0.5 } });
    await deck.waitForImage('half-speed', (svg) => svg.includes('SPEED') && svg.includes('0.5 x'), 'the speed face');
    deck.press('half-speed');
    await deck.waitFor(() => deck.sent('showAlert', 'half-speed').length > 0 || undefined, 'an alert for the refused speed');
    // r34 refuses it with its reason in status.details. A build without the command: refused unsent once its
    // description is read (the key reads it when it appears), else answered 404.
    const reason = sim.options.dialect === 'r34' ? /Transport speed control is disabled/ : /API 1\.0\.0 offers no `transport\/speed`|does not offer/;
    await expect.poll(() => pluginLog(deck), { timeout: 5000 }).toMatch(reason);
    if (sim.options.dialect !== 'r34') return;

    await control(sim, { action: 'projectOption', name: 'enableTransportSpeedControl', on: true });
    deck.press('half-speed');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'half-speed'), 'showOk once speed control is on');
  });

  it('shows the worst health severity of the session and of one machine, and a machine that failed over', async () => {
    const { actors } = await client.status.session();
    const actor = actors[0];
    if (!actor) throw new Error('The simulated session has no actor');
    deck.appear({ action: HEALTH, context: 'health-session', settings: {} });
    deck.appear({ action: HEALTH, context: 'health-actor', settings: { machine: actor.hostname }, column: 1 });
    await deck.waitForLatestImage('health-actor', (svg) => svg.includes(actor.hostname) && !svg.includes('>OFFLINE<'), `${actor.hostname} running`);

    await client.failover.failoverMachine({ uid: actor.uid });
    deck.press('health-actor');

    // A failed-over actor reports every category offline: the worst severity there is, for it and the session.
    const machineOffline = `fill="${palette.machineOffline}"`;
    await deck.waitForLatestImage('health-actor', (svg) => svg.includes('>OFFLINE<') && svg.includes(machineOffline), `${actor.hostname} OFFLINE`);
    await deck.waitForLatestImage('health-session', (svg) => svg.includes('>OFFLINE<') && svg.includes('SESSION') && svg.includes(machineOffline), 'the session OFFLINE');
  });

  const volumeOf = async (transport: string): Promise<number | undefined> =>
    (await client.transport.transports()).transports.find((candidate) => candidate.name === transport)?.volume;
  const volumeRequestsSince = (from: number): LogEntry[] => requests.slice(from).filter((entry) => String(entry.path).endsWith('/transport/volume'));

  /** A Level dial on the lobby's volume at 83 %, 0.05 a tick, once its strip shows that. */
  async function dialAt83(): Promise<void> {
    await client.transport.setVolume({ transport: { name: 'lobby' }, volume: 0.83 });
    deck.appear({ action: LEVEL, context: 'dial', controller: 'Encoder', settings: { property: 'volume', transport: 'lobby', step: 0.05 } });
    await deck.waitFor(() => deck.feedback('dial').find((feedback) => feedback.value === '83%'), 'the strip showing 83%');
  }

  /** Three quick ticks up: the strip and the lobby end at 98 %, without an alert. Answers the volume requests they took. */
  async function turnThreeTicks(): Promise<LogEntry[]> {
    const from = requests.length;
    deck.dialRotate('dial', 1);
    deck.dialRotate('dial', 1);
    deck.dialRotate('dial', 1);

    await deck.waitFor(() => deck.feedback('dial').find((feedback) => feedback.value === '98%'), 'the strip showing 98%');
    await expect.poll(() => volumeOf('lobby'), { timeout: 5000 }).toBeCloseTo(0.98, 6);
    expect(deck.sent('showAlert', 'dial')).toHaveLength(0);
    return volumeRequestsSince(from);
  }

  it('changes the volume by exactly three steps for three quick dial ticks through the live stream, with no REST request', async () => {
    await dialAt83();
    // The dial writes through the stream once the server has sent it the live value.
    await expect.poll(() => sim.live.stats().subscribed.some((value) => value.property === 'object.volume'), { timeout: 5000 }).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await turnThreeTicks()).toEqual([]);
  });

  it('changes the volume over REST, three ticks in at most two requests, when the live stream is refused', async () => {
    await control(sim, { action: 'refuseUpgrades', on: true });
    await dialAt83();
    // Slow answers, so the second and third ticks arrive while the first change is still out.
    await control(sim, { action: 'latency', ms: 300 });
    const rest = await turnThreeTicks();
    expect(rest.length).toBeGreaterThanOrEqual(1);
    expect(rest.length).toBeLessThanOrEqual(2);
  });

  it("answers the inspector's dropdown request with the simulator's tracks", async () => {
    deck.appear({ action: TRANSPORT, context: 'cue', settings: { command: 'gototrack', transport: 'main' } });
    deck.inspectorAppear('cue');
    deck.sendToPlugin('cue', { request: 'tracks', requestId: 41 });

    const answer = await deck.waitFor(
      (commands) => commands.find((c) => c.event === 'sendToPropertyInspector' && (c.payload as JsonObject).requestId === 41),
      'the tracks answer',
    );
    const tracks = await client.transport.tracks();
    expect(answer.context).toBe('cue');
    expect(answer.payload).not.toHaveProperty('error');
    expect((answer.payload as { items: { value: string }[] }).items.map((item) => item.value)).toEqual(tracks.map((track) => track.name));
  });

  it('tells the inspector a host that is not text is no address, and a key with one that it has no server', async () => {
    deck.appear({ action: TRANSPORT, context: 'numbered', settings: { command: 'play', transport: 'main', host: 5 } });
    deck.inspectorAppear('numbered');
    deck.sendToPlugin('numbered', { request: 'connection', requestId: 'numbered-host', host: 5 });

    const answer = await deck.waitFor(
      (commands) => commands.find((c) => c.event === 'sendToPropertyInspector' && (c.payload as JsonObject).requestId === 'numbered-host'),
      'the connection answer',
    );
    expect(answer.payload).toMatchObject({ state: 'invalid', host: '' });
    expect((answer.payload as JsonObject).message).toMatch(/must be text, not the number 5/);
    await deck.waitForImage('numbered', (svg) => svg.includes('>SET UP<'), 'the set-up face');
    deck.press('numbered');
    await deck.waitFor(() => deck.sent('showAlert', 'numbered').length > 0 || undefined, 'an alert for the key without a server');
    expect(await playmodeOf('main')).not.toBe('Play');
  });

  it('lives through malformed events, settings and inspector messages, and still fires a cue', async () => {
    deck.appear({ action: TRANSPORT, context: 'odd-cue', settings: { command: 5, transport: { name: ['main'] } } });
    deck.appear({ action: FPS, context: 'odd-fps', settings: { machine: '"); drop(', target: 'fast' }, column: 1 });
    deck.appear({ action: HEALTH, context: 'odd-health', settings: { machine: 42 }, column: 2 });
    deck.appear({ action: LEVEL, context: 'odd-dial', controller: 'Encoder', settings: { property: ['volume'], step: 'big' } });
    deck.appear({ action: 'com.stagelink.mediaserver.unknown', context: 'stranger', settings: {} });
    deck.press('odd-cue');
    deck.press('odd-health');
    deck.dialRotate('odd-dial', 3);
    deck.sendRaw('this is not JSON');
    deck.sendRaw('{"event": 12}');
    deck.send({ event: 'keyDown' });
    deck.send({ event: 'willAppear', action: TRANSPORT, context: 'ghost', device: 'no-such-device', payload: {} });
    deck.send({ event: 'dialRotate', action: LEVEL, context: 'odd-dial', device: 'DEVICE-PLUS-1', payload: { ticks: 'many', settings: null } });
    deck.send({ event: 'keyDown', action: TRANSPORT, context: 'never-appeared', device: 'DEVICE-PLUS-1', payload: { settings: {} } });
    deck.send({ event: 'didReceiveSettings', action: FPS, context: 'odd-fps', device: 'DEVICE-PLUS-1', payload: { settings: null } });
    deck.send({ event: 'didReceiveGlobalSettings', payload: { settings: { host: 12345 } } });
    deck.send({ event: 'didReceiveGlobalSettings', payload: null });
    deck.inspectorAppear('odd-cue');
    deck.sendToPlugin('odd-cue', 'junk');
    deck.sendToPlugin('odd-cue', { request: { nested: true }, host: 7 });
    deck.sendToPlugin('odd-cue', { request: 'sections', track: null });
    await deck.waitFor(() => deck.sent('showAlert', 'odd-cue').length > 0 || undefined, 'an alert for the unset cue');

    deck.changeGlobalSettings({ host: sim.mediaServer.url });
    deck.appear({ action: TRANSPORT, context: 'play-main', settings: { command: 'play', transport: 'main' }, column: 3 });
    deck.press('play-main');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'play-main'), 'showOk after the noise');
    expect(await playmodeOf('main')).toBe('Play');
    expect(deck.exitCode).toBeNull();
  });

  it("exits within 5 s when the Stream Deck app's socket closes", async () => {
    deck.appear({ action: FPS, context: 'fps', settings: {} });
    deck.appear({ action: HEALTH, context: 'health', settings: {}, column: 1 });
    await deck.waitForImage('health', (svg) => svg.startsWith('<svg'), 'the health key painted');

    deck.closeSocket();
    const exit = await Promise.race([deck.exited(), new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 5000))]);
    expect(exit).toBe(0);
  });
});
