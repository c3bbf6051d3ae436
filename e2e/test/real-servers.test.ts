import { isPlaying, livePresets, MediaServer, NotOfferedError, StatusError, endpoints, type LiveValue } from '@stagelink/core';
import { startSimulator, type Simulator } from '@stagelink/simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { control, eventually } from './support/simulator.js';

/**
 * Core against a simulator speaking as a shipping r34 director: the words, indexes and names real machines use
 * where they differ from the API documents.
 */
describe('core on an r34 director', () => {
  let sim: Simulator;
  let ms: MediaServer;
  const main = { name: 'main' };
  /** Every request that reached the simulator, as `METHOD path`. */
  const arrived: string[] = [];

  beforeAll(async () => {
    sim = await startSimulator({
      dialect: 'r34',
      port: 0,
      drivePort: 0,
      log: (entry) => {
        if (entry.event === 'request') arrived.push(`${String(entry.method)} ${String(entry.path)}`);
      },
    });
    ms = new MediaServer({ host: sim.mediaServer.url, retries: 0, timeoutMs: 5000 });
  });
  afterAll(async () => {
    await ms.close();
    await sim.close();
  });
  beforeEach(async () => {
    await control(sim.mediaServer.url, { action: 'reset' });
    arrived.length = 0;
  });

  const mainTransport = async () => (await ms.transport.transports()).transports.find((transport) => transport.name === 'main');

  it('lands a go-to cue with the documents\' playmode play, and reads the transport as playing', async () => {
    const [track] = await ms.transport.tracks();
    await ms.transport.gotoTrack({ transport: main, track: { name: track?.name ?? '' }, playmode: 'play' });
    const transport = await mainTransport();
    expect(transport?.playmode).toBe('Play');
    expect(isPlaying(transport)).toBe(true);
    await ms.transport.playLoopSection(main);
    expect((await mainTransport())?.playmode).toBe('Loop');
    expect(isPlaying(await mainTransport())).toBe(true);
  });

  it('goes to section 1 by index, and refuses a section name before sending anything', async () => {
    const current = await mainTransport();
    const { annotations } = await ms.transport.annotations({ name: current?.currentTrack.name ?? '' });
    const second = annotations.sections.find((section) => section.index === 1);
    expect(second).toBeDefined();
    await ms.transport.gotoSection({ transport: main, section: 1 });
    arrived.length = 0;
    await expect(ms.transport.gotoSection({ transport: main, section: 'Chorus' })).rejects.toThrow(/use gotonote/);
    expect(arrived).toEqual([]);
  });

  it('brings the speed refusal to the user in the server\'s words', async () => {
    const failure = ms.transport.setSpeed({ transport: main, speed: 2 });
    await expect(failure).rejects.toBeInstanceOf(StatusError);
    await expect(failure).rejects.toThrow(/Transport speed control is disabled\. Enable the 'enableTransportSpeedControl' option to use it\./);
  });

  it('reports a command the build lacks as not offered, and lists what it offers', async () => {
    await expect(ms.looks.list()).rejects.toBeInstanceOf(NotOfferedError);
    const api = await ms.apiDescription();
    expect(api.offers(endpoints.speed)).toBe(true);
    expect(api.offers(endpoints.looks)).toBe(false);
    expect(api.offers(endpoints.play)).toBe(true);
  });

  it('streams the FPS of a remote machine given its hostname in lower case', async () => {
    const { actors } = await ms.status.session();
    const hostname = actors[0]?.hostname ?? '';
    expect(hostname).not.toBe(hostname.toLowerCase());
    const values: LiveValue[] = [];
    const fps = ms.live.subscribe(livePresets.remoteFps(hostname.toLowerCase()), (value) => values.push(value));
    try {
      await eventually(() => values.length > 0, 'a remote FPS value arrived');
      expect(values[0]?.object).toContain(`${hostname}:d3`);
      expect(typeof values[0]?.value).toBe('number');
    } finally {
      fps.close();
    }
  });

  it('writes a value through the live stream and reads it back as a 32-bit float', async () => {
    const values: number[] = [];
    const brightness = ms.live.subscribe(livePresets.transportBrightness('main'), ({ value }) => values.push(value as number));
    try {
      await eventually(() => values.length > 0, 'the brightness was read');
      await brightness.set(0.95);
      await eventually(() => Math.abs((values.at(-1) ?? 0) - 0.95) < 1e-6, 'the written brightness came back');
      expect((await mainTransport())?.brightness).toBeCloseTo(0.95, 6);
    } finally {
      brightness.close();
    }
  });

  it('keeps cueing a director whose machine name does not resolve, at the address given', async () => {
    const follower = new MediaServer({ host: sim.mediaServer.url, followDirector: true, retries: 0, timeoutMs: 5000 });
    try {
      await follower.transport.play(main);
      expect(follower.director?.hostname).toBe('DIRECTOR01');
      expect(follower.origin).toBe(sim.mediaServer.url);
      expect(isPlaying(await mainTransport())).toBe(true);
    } finally {
      await follower.close();
    }
  });
});
