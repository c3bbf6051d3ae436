import { livePresets, MediaServer, type LiveValue } from '@stagelink/core';
import { startSimulator, type Simulator } from '@stagelink/simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { watchLive } from './support/live-watch.js';
import { control, eventually } from './support/simulator.js';

/**
 * A transport's volume and brightness read and written through the live stream, on a transport whose name has a
 * space ("side screens" in the seeded show), in each dialect: shipping directors know the transport only as
 * `transportmanager:side_screens`, the documents as `transportManager:"side screens"`.
 */
describe.each(['spec', 'r34'] as const)('transport levels on the live stream in the %s dialect', (dialect) => {
  const TRANSPORT = 'side screens';
  let sim: Simulator;
  let ms: MediaServer;

  beforeAll(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 7, dialect });
  });
  afterAll(async () => {
    await sim.close();
  });
  beforeEach(async (test) => {
    await control(sim.mediaServer.url, { action: 'reset' });
    ms = new MediaServer({ host: sim.mediaServer.url, retries: 0, timeoutMs: 5000 });
    test.onTestFinished(() => ms.close());
  });

  const levelsOnRest = async () => {
    const transport = (await ms.transport.transports()).transports.find(({ name }) => name === TRANSPORT);
    return { volume: transport?.volume, brightness: transport?.brightness };
  };
  const rejectedFrames = async () => (await control(sim.mediaServer.url, { action: 'status' })).live.rejectedFrames;
  const latest = (values: LiveValue[]) => values.at(-1)?.value as number | undefined;
  const near = (value: number | undefined, wanted: number) => value !== undefined && Math.abs(value - wanted) < 1e-6;

  it(`reads and sets the volume and brightness of "${TRANSPORT}"`, async () => {
    const volume = watchLive(ms, livePresets.transportVolume(TRANSPORT));
    const brightness = watchLive(ms, livePresets.transportBrightness(TRANSPORT));
    await eventually(() => volume.values.length > 0 && brightness.values.length > 0, 'both levels read', 15_000);
    expect([latest(volume.values), latest(brightness.values)]).toEqual([1, 1]);

    await volume.subscription.set(0.3);
    await brightness.subscription.set(0.6);
    const landed = () => near(latest(volume.values), 0.3) && near(latest(brightness.values), 0.6);
    await eventually(async () => landed() || (await rejectedFrames()) > 0, 'both written levels came back', 15_000);
    // r34 loses a frame sent right behind another unanswered one: the client spaces its writes.
    expect(await rejectedFrames()).toBe(0);
    expect(landed()).toBe(true);
    const rest = await levelsOnRest();
    expect(rest.volume).toBeCloseTo(0.3, 6);
    expect(rest.brightness).toBeCloseTo(0.6, 6);
    expect([...volume.errors, ...brightness.errors]).toEqual([]);
    expect([volume.subscription.status, brightness.subscription.status]).toEqual(['online', 'online']);
  }, 30_000);

  it('keeps one server subscription per level, under a name the dialect knows', async () => {
    const volume = watchLive(ms, livePresets.transportVolume(TRANSPORT));
    const brightness = watchLive(ms, livePresets.transportBrightness(TRANSPORT));
    await eventually(() => volume.values.length > 0 && brightness.values.length > 0, 'both levels read', 15_000);
    const levels = async () => (await control(sim.mediaServer.url, { action: 'status' })).live.subscribed.filter(({ property }) => ['object.volume', 'object.brightness'].includes(property));
    // The name that did not answer first is released: one subscription each remains.
    await eventually(async () => (await levels()).length === 2, 'one server subscription per level');
    const known = dialect === 'r34' ? ['transportmanager:side_screens'] : ['transportmanager:side_screens', 'transportManager:"side screens"'];
    for (const { object } of await levels()) expect(known).toContain(object);
  }, 30_000);
});
