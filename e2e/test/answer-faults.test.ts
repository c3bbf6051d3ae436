import { LateAnswerError, MediaServer, StalledAnswerError, isUnreachable } from '@stagelink/core';
import { startSimulator, type Simulator } from '@stagelink/simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { control } from './support/simulator.js';

/**
 * Core against a simulated r34 director with the answer faults venues report: large answers that stop after
 * their headers (an MTU mismatch on the show network) and commands that take effect at once but answer late.
 */
describe('core on an r34 director whose answers stall or come late', () => {
  let sim: Simulator;
  let ms: MediaServer;
  const main = { name: 'main' };
  const TIMEOUT_MS = 1000;
  /** Cues that reached the director, a late one whose answer core stopped waiting for included. */
  const sent = (path: string) => sim.arrivals.count('POST', `/api/session/transport/${path}`);

  beforeAll(async () => {
    sim = await startSimulator({ dialect: 'r34', port: 0, drivePort: 0 });
    ms = new MediaServer({ host: sim.mediaServer.url, timeoutMs: TIMEOUT_MS });
  });
  afterAll(async () => {
    await ms.close();
    await sim.close();
  });
  beforeEach(async () => {
    await control(sim.mediaServer.url, { action: 'reset' });
  });

  it('fails a stalled transports answer within its deadline as a stalled answer, while small answers still come and the link stays up', async () => {
    await control(sim.mediaServer.url, { action: 'stallBody', path: '/api/session/transport/transports', on: true });
    const started = performance.now();
    const error = await ms.transport.transports().catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 2000);
    expect(error).toBeInstanceOf(StalledAnswerError);
    expect(error).toMatchObject({ code: 'STAGELINK_ERR_STALLED_ANSWER', timeoutMs: TIMEOUT_MS });
    expect((error as Error).message).toMatch(/large answers do not get through\. Check the show network's MTU/);
    expect(isUnreachable(error)).toBe(false);

    const session = await ms.status.session();
    expect(session.director?.hostname).toBeTruthy();
    expect(ms.linkDown).toBeUndefined();
    // A cue still goes out at once: the link was never marked down.
    await ms.transport.play(main);
    expect(sent('play')).toBe(1);
  });

  it('sends a late-answered gototrack once and says it landed', async () => {
    const { transports } = await ms.transport.transports();
    const current = transports.find((transport) => transport.name === 'main')?.currentTrack.name;
    const other = (await ms.transport.tracks()).find((track) => track.name !== current);
    expect(other).toBeDefined();
    await control(sim.mediaServer.url, { action: 'slowAnswer', ms: TIMEOUT_MS + 1500, path: '/api/session/transport/gototrack' });
    // The reading the cue is judged against: the client's own, from just before it.
    await ms.transport.transports();

    const error = await ms.transport.gotoTrack({ transport: main, track: { name: other?.name ?? '' }, playmode: 'play' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LateAnswerError);
    expect(error).toMatchObject({ outcome: 'landed', code: 'STAGELINK_ERR_LATE_LANDED' });
    expect(sent('gototrack')).toBe(1);
    const now = (await ms.transport.transports()).transports.find((transport) => transport.name === 'main');
    expect(now).toMatchObject({ currentTrack: { name: other?.name }, playmode: 'Play' });
    expect(sent('gototrack')).toBe(1);
  });

  it('says the outcome of a late play on a transport that was already playing is unknown', async () => {
    await ms.transport.play(main);
    expect((await ms.transport.transports()).transports.find((transport) => transport.name === 'main')?.playmode).toBe('Play');
    await control(sim.mediaServer.url, { action: 'slowAnswer', ms: TIMEOUT_MS + 1500, path: '/api/session/transport/play' });

    const error = await ms.transport.play(main).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LateAnswerError);
    expect(error).toMatchObject({ outcome: 'unknown', code: 'STAGELINK_ERR_LATE_UNKNOWN' });
    expect((error as Error).message).toMatch(/already showed Play before it was sent/);
    expect(sent('play')).toBe(2);
  });
});
