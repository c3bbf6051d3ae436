import { CueLane, cueFateOf, endpoints, MediaServer, type CueFate } from '@stagelink/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestSimulator } from './support/simulator.js';

/**
 * What became of a cue (`cueFateOf`), from the errors core throws against the simulator over real sockets, in the
 * run's dialect: the rule the Stream Deck keys and Companion's last-cue variables say it by.
 */
describe('the fate of a cue against the simulator', () => {
  const TIMEOUT_MS = 1000;
  const main = { name: 'main' };
  let sim: Awaited<ReturnType<typeof startTestSimulator>> | undefined;
  let ms: MediaServer;

  beforeEach(async () => {
    sim = await startTestSimulator();
    ms = new MediaServer({ host: sim.mediaServer.url, timeoutMs: TIMEOUT_MS, retries: 0 });
  });
  afterEach(async () => {
    await ms.close();
    await sim?.close();
  });

  const fateOf = (cue: Promise<unknown>): Promise<CueFate> =>
    cue.then(
      () => cueFateOf(),
      (error: unknown) => cueFateOf(error),
    );
  const simulator = () => {
    if (!sim) throw new Error('The simulator was closed');
    return sim;
  };
  /** A track of the show the transport is not on. */
  const otherTrack = async (): Promise<string> => {
    const { transports } = await ms.transport.transports();
    const current = transports.find((transport) => transport.name === 'main')?.currentTrack.name;
    const other = (await ms.transport.tracks()).find((track) => track.name !== current)?.name;
    if (other === undefined) throw new Error('The simulated show has two tracks');
    return other;
  };

  it('is ok for a cue that went through, refused for one the director refused, not-sent for one it cannot take', async () => {
    expect(await fateOf(ms.transport.play(main))).toBe('ok');
    expect(await fateOf(ms.transport.gotoTrack({ transport: main, track: { name: 'no such track' }, playmode: 'play' }))).toBe('refused');
    expect(await fateOf(ms.transport.gotoSection({ transport: main, section: 'Chorus' }))).toBe('not-sent');
    // A power-off without its confirmation.
    expect(await fateOf(ms.call(endpoints.powerOff, {}, { machine: 'ACTOR01' }))).toBe('not-sent');
  });

  it('is landed-late for a cue whose answer came late and that shows on the transport, unknown when it cannot tell', async () => {
    const other = await otherTrack();
    await simulator().control({ action: 'slowAnswer', ms: TIMEOUT_MS + 1500, path: '/api/session/transport/gototrack' });
    await ms.transport.transports();
    expect(await fateOf(ms.transport.gotoTrack({ transport: main, track: { name: other }, playmode: 'play' }))).toBe('landed-late');

    // Play on a transport that plays already: the re-read shows what it showed before.
    await simulator().control({ action: 'slowAnswer', ms: TIMEOUT_MS + 1500, path: '/api/session/transport/play' });
    expect(await fateOf(ms.transport.play(main))).toBe('unknown');
  });

  it('is not-sent for a cue that waited behind a slow one longer than its budget', async () => {
    await simulator().control({ action: 'latency', ms: 600 });
    const lane = new CueLane({ maxWaitMs: 300, name: simulator().mediaServer.url });
    const [first, second] = await Promise.all([fateOf(lane.send(() => ms.transport.stop(main))), fateOf(lane.send(() => ms.transport.play(main)))]);
    expect(first).toBe('ok');
    expect(second).toBe('not-sent');
  });

  it('is link-down for a cue to a director that stopped answering', async () => {
    await ms.transport.transports();
    await simulator().close();
    sim = undefined;
    await expect(ms.transport.transports()).rejects.toMatchObject({ code: 'STAGELINK_ERR_CONNECTION' });
    expect(await fateOf(ms.transport.play(main))).toBe('link-down');
  });
});
