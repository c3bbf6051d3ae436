import { ConfirmationRequiredError, MediaServer, NotDescribedError, NotOfferedError, endpointList, livePresets, type LayersSnapshot } from '@stagelink/core';
import { startSimulator, type Simulator } from '@stagelink/simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { watchLive } from './support/live-watch.js';
import { control, eventually } from './support/simulator.js';

const API_DESCRIPTION = '/docs/session/d3api.swagger.json';

/** A simulator in one dialect, a client of it, and every request that reached it as `METHOD path`. */
function simulatorIn(dialect: 'r34' | 'spec') {
  const world = { sim: undefined as unknown as Simulator, ms: undefined as unknown as MediaServer, arrived: [] as string[] };
  beforeAll(async () => {
    world.sim = await startSimulator({
      dialect,
      port: 0,
      drivePort: 0,
      log: (entry) => {
        if (entry.event === 'request') world.arrived.push(`${String(entry.method)} ${String(entry.path)}`);
      },
    });
    world.ms = new MediaServer({ host: world.sim.mediaServer.url, retries: 0, timeoutMs: 5000 });
  });
  afterAll(async () => {
    await world.ms.close();
    await world.sim.close();
  });
  beforeEach(async () => {
    await control(world.sim.mediaServer.url, { action: 'reset' });
    world.arrived.length = 0;
  });
  return world;
}

const RECORDED = [
  'renderstream/startlayers',
  'renderstream/stoplayers',
  'renderstream/restartlayers',
  'renderstream/synclayers',
  'renderstream/failover',
  'renderstream/failoverpool',
  'sockpuppet/live',
  'omnical/cameradiscovery',
  'omnical/rigcheck/executeplan',
  'python/execute',
  'status/setguimode',
];

describe("the director's own description, on an r34 director", () => {
  const world = simulatorIn('r34');

  it('lists the recorded commands, each known to core', async () => {
    const described = await world.ms.describe();
    expect(described).toMatchObject({ title: 'd3 API', version: '2.0.3' });
    const byPath = new Map(described.commands.map((command) => [command.path, command]));
    for (const path of RECORDED) expect(byPath.get(`/api/session/${path}`)).toMatchObject({ method: 'POST', known: true });
    expect(byPath.get('/api/session/renderstream/restartlayers')?.summary).toBe('Restart the workloads of RenderStream layers');
    expect(described.commands.every((command) => endpointList.some((endpoint) => endpoint.path === command.path))).toBe(true);
  });

  it('refuses unsent a catalogue command the description lacks, naming the version', async () => {
    await world.ms.describe();
    world.arrived.length = 0;
    const refused = world.ms.looks.list();
    await expect(refused).rejects.toBeInstanceOf(NotDescribedError);
    await expect(refused).rejects.toThrow("this director's API 2.0.3 offers no `looks`");
    expect(world.arrived).toEqual([]);
  });

  it('reads the description again once a dropped live stream is back, as after a project reload, and goes on refusing', async () => {
    await world.ms.describe();
    const fps = watchLive(world.ms, livePresets.localFps());
    try {
      await eventually(() => fps.statuses.at(-1) === 'online', 'the live stream up');
      world.arrived.length = 0;
      await control(world.sim.mediaServer.url, { action: 'dropSockets' });
      await eventually(() => world.arrived.includes(`GET ${API_DESCRIPTION}`), 'the description read again');
      await eventually(() => fps.statuses.at(-1) === 'online', 'the live stream back');
      // The read already made answers: describe() asks nothing more.
      world.arrived.length = 0;
      await world.ms.describe();
      await expect(world.ms.looks.list()).rejects.toBeInstanceOf(NotDescribedError);
      expect(world.arrived).toEqual([]);
    } finally {
      fps.subscription.close();
    }
  });

  it("sends a later build's command by its path, and refuses unsent a body its description does not take", async () => {
    await control(world.sim.mediaServer.url, { action: 'describeCommand', path: 'renderstream/layerhealth', summary: 'Health of a layer', body: { layer: 'Ref' } });
    world.ms.forgetDescription();
    const described = await world.ms.describe();
    expect(described.commands.find((command) => command.path === '/api/session/renderstream/layerhealth')).toEqual({ method: 'POST', path: '/api/session/renderstream/layerhealth', summary: 'Health of a layer', known: false });
    world.arrived.length = 0;
    await expect(world.ms.callDescribed({ path: 'renderstream/layerhealth' }, { layers: [{ name: 'Notch FX' }] })).rejects.toThrow('body.layers is not a field the director describes (it knows layer)');
    expect(world.arrived).toEqual([]);
    await expect(world.ms.callDescribed({ path: 'renderstream/layerhealth' }, { layer: { name: 'Notch FX' } })).resolves.toMatchObject({ result: { received: { layer: { name: 'Notch FX' } } } });
    expect(world.arrived).toEqual(['POST /api/session/renderstream/layerhealth']);
    world.ms.forgetDescription();
  });

  it('restarts a crashed workload and reads it running again', async () => {
    await control(world.sim.mediaServer.url, { action: 'crashWorkload', layer: { name: 'Unreal Stage' } });
    const unreal = async () => (await world.ms.renderstream.layers()).find((layer) => layer.name === 'Unreal Stage')?.workload.state;
    expect(await unreal()).toBe('error');
    await world.ms.renderstream.restartLayers({ layers: [{ name: 'Unreal Stage' }] });
    expect(await unreal()).toBe('running');
  });

  it("watches the workloads: a crash shows as error and a restart as running, one read a period for every watcher", async () => {
    const seen: string[] = [];
    const stateOf = (snapshot: LayersSnapshot) => `${snapshot.status} ${snapshot.layers.find((layer) => layer.name === 'Unreal Stage')?.workload.state ?? '-'}`;
    const watches = [world.ms.renderstream.watch((snapshot) => seen.push(stateOf(snapshot)), { everyMs: 1000 }), world.ms.renderstream.watch(() => undefined)];
    try {
      await eventually(() => seen.at(-1) === 'online running', 'the layers read');
      await control(world.sim.mediaServer.url, { action: 'crashWorkload', layer: { name: 'Unreal Stage' } });
      await eventually(() => seen.at(-1) === 'online error', 'the crash seen');
      await world.ms.renderstream.restartLayers({ layers: [{ name: 'Unreal Stage' }] });
      await eventually(() => seen.at(-1) === 'online running', 'the workload running again');
      const reads = world.arrived.filter((request) => request === 'GET /api/session/renderstream/layers').length;
      // Two seconds or so at one read a second, shared by both watchers, not one poll each.
      expect(reads).toBeLessThanOrEqual(8);
      expect(seen).toEqual(['online running', 'online error', 'online running']);
    } finally {
      for (const watch of watches) watch.close();
    }
  });

  it('asks for a confirmation before stopping layers, and stops them once confirmed', async () => {
    await expect(world.ms.renderstream.stopLayers({ layers: [{ name: 'Notch FX' }] })).rejects.toBeInstanceOf(ConfirmationRequiredError);
    await world.ms.renderstream.stopLayers({ layers: [{ name: 'Notch FX' }] }, { confirm: true });
    expect((await world.ms.renderstream.layers()).find((layer) => layer.name === 'Notch FX')?.workload.state).toBe('stopped');
  });
});

describe('a director of the documents (spec dialect)', () => {
  const world = simulatorIn('spec');

  it('sends every command as today while no description was read, and a build without RenderStream answers not offered', async () => {
    await expect(world.ms.renderstream.restartLayers({ layers: [{ name: 'Unreal Stage' }] })).rejects.toBeInstanceOf(NotOfferedError);
    expect(world.arrived).toEqual(['POST /api/session/renderstream/restartlayers']);
    await expect(world.ms.looks.list()).resolves.toBeDefined();
  });

  it('watches the layers of a build without RenderStream as offline, saying it offers none', async () => {
    let last: LayersSnapshot | undefined;
    const watch = world.ms.renderstream.watch((snapshot) => (last = snapshot));
    try {
      await eventually(() => last !== undefined, 'the first read');
      expect(last).toMatchObject({ status: 'offline', layers: [] });
      expect(last?.problem?.error).toBeInstanceOf(NotOfferedError);
    } finally {
      watch.close();
    }
  });
});
