import { MediaServer } from '@stagelink/core';
import { simControl, startSimulator, type Simulator } from '@stagelink/simulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { collect, eventually, helper, nextMessage, nodeModules, statuses, type Msg } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-renderstream');

const renderstream = { type: 'stagelink-renderstream', operation: 'restart', layer: 'Unreal Stage', layerType: 'str', layerBy: 'name' };

/** The node under test `n1`: results to helper `out`, the layer's changes to helper `states`; a Catch to `caught`. */
function flowOn(sim: Simulator, ...under: Record<string, unknown>[]): Record<string, unknown>[] {
  return [
    { id: 'tab', type: 'tab', label: 'test' },
    { id: 'server', type: 'stagelink-server', host: sim.mediaServer.url, followDirector: true },
    ...under.map((node, index) => ({ id: index === 0 ? 'n1' : `n${index + 1}`, z: 'tab', server: 'server', wires: [['out'], ['states']], ...node })),
    { id: 'out', z: 'tab', type: 'helper' },
    { id: 'states', z: 'tab', type: 'helper' },
    { id: 'catcher', z: 'tab', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', z: 'tab', type: 'helper' },
  ];
}

interface LayerChange {
  layer: { uid?: string; name?: string };
  status: string;
  state: string | null;
  message?: string;
  previous: { state: string | null; status: string } | null;
}

const changeOf = (msg: Msg | undefined): LayerChange | undefined => msg?.payload as LayerChange | undefined;

describe('stagelink-renderstream on a director with RenderStream (r34)', () => {
  let sim: Simulator;
  let client: MediaServer;
  beforeAll(async () => {
    sim = await startSimulator({ dialect: 'r34', host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
    client = new MediaServer({ host: sim.mediaServer.url });
  });
  afterAll(async () => {
    await client?.close();
    await sim?.close();
  });
  beforeEach(async () => {
    await simControl(sim.mediaServer.url, { action: 'reset' });
  });
  afterEach(async () => {
    await helper.unload();
  });

  const workload = async (name: string) => (await client.renderstream.layers()).find((layer) => layer.name === name)?.workload.state;

  it('shows its layer running from the deploy on, and sends that first reading on the second output', async () => {
    await helper.load(nodes, flowOn(sim, renderstream));
    const seen = statuses('n1');
    const states = collect('states');
    await eventually(() => expect(changeOf(states[0])).toMatchObject({ layer: { name: 'Unreal Stage' }, status: 'online', state: 'running', previous: null }));
    expect(states[0]?.topic).toBe('Unreal Stage');
    await eventually(() => expect(seen.at(-1)).toEqual({ fill: 'green', shape: 'dot', text: 'running' }));
  });

  it('shows a crashed workload in red and sends the change, then an input restart brings it back to running', async () => {
    await helper.load(nodes, flowOn(sim, renderstream));
    const seen = statuses('n1');
    const states = collect('states');
    await eventually(() => expect(changeOf(states.at(-1))?.state).toBe('running'));

    await simControl(sim.mediaServer.url, { action: 'crashWorkload', layer: { name: 'Unreal Stage' } });
    await eventually(() => expect(changeOf(states.at(-1))).toMatchObject({ state: 'error', status: 'online', previous: { state: 'running', status: 'online' } }));
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'red', shape: 'ring', text: expect.stringMatching(/^error/) as unknown }));

    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ payload: 1 });
    const result = await out;
    expect(result.payload).toEqual({ operation: 'restart', layer: { name: 'Unreal Stage' } });
    expect(await workload('Unreal Stage')).toBe('running');
    await eventually(() => expect(changeOf(states.at(-1))).toMatchObject({ state: 'running', previous: { state: 'error' } }));
    await eventually(() => expect(seen.at(-1)).toEqual({ fill: 'green', shape: 'dot', text: 'running' }));
  });

  it('takes msg.operation and msg.layer when the node leaves them blank, and watches the layer the msg named', async () => {
    await helper.load(nodes, flowOn(sim, { ...renderstream, operation: '', layer: '' }));
    const states = collect('states');
    await simControl(sim.mediaServer.url, { action: 'crashWorkload', layer: { name: 'Notch FX' } });
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'restartLayers', layer: 'Notch FX' });
    expect((await out).payload).toEqual({ operation: 'restart', layer: { name: 'Notch FX' } });
    await eventually(() => expect(changeOf(states.at(-1))).toMatchObject({ layer: { name: 'Notch FX' }, state: 'running' }));
    expect(await workload('Notch FX')).toBe('running');
  });

  it('stops only with msg.confirm === true, refused to Catch otherwise, as the failover node refuses', async () => {
    await helper.load(nodes, flowOn(sim, { ...renderstream, operation: 'stop' }));
    for (const confirm of [undefined, 'true', 1, false]) {
      const caught = nextMessage('caught');
      helper.getNode('n1')?.receive({ confirm });
      expect((await caught).error?.message).toMatch(/^ConfirmationRequiredError: stop was not sent: set msg.confirm to true to confirm it/);
    }
    expect(await workload('Unreal Stage')).toBe('running');

    const states = collect('states');
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ confirm: true });
    // One confirmation arms one command: it does not ride on to the next node.
    expect(await out).not.toHaveProperty('confirm');
    expect(await workload('Unreal Stage')).toBe('stopped');
    await eventually(() => expect(changeOf(states.at(-1))?.state).toBe('stopped'));
  });

  it('an armed node stops without msg.confirm', async () => {
    await helper.load(nodes, flowOn(sim, { ...renderstream, operation: 'stop', armed: true }));
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({});
    await out;
    expect(await workload('Unreal Stage')).toBe('stopped');
  });

  it('says a layer name that matches nothing, on the status and once to Catch with the layers there are', async () => {
    await helper.load(nodes, flowOn(sim, { ...renderstream, layer: 'Unreal Stag' }));
    const caught = collect('caught');
    const seen = statuses('n1');
    await eventually(() => expect(seen.at(-1)).toEqual({ fill: 'red', shape: 'ring', text: 'no layer "Unreal Stag"' }));
    await eventually(() => expect(caught).toHaveLength(1));
    expect(caught[0]?.topic).toBe('setup');
    expect(caught[0]?.error?.message).toMatch(/no RenderStream layer "Unreal Stag": its layers are Unreal Stage, Notch FX, TouchDesigner Data/);

    // An operation on it is refused by the director, naming the layers, to Catch with the msg.
    helper.getNode('n1')?.receive({ payload: 'go' });
    await eventually(() => expect(caught).toHaveLength(2));
    expect(caught[1]?.payload).toBe('go');
    expect(caught[1]?.error?.message).toMatch(/Unreal Stag/);
  });

  it('reports an operation it does not know to Catch, and sends nothing', async () => {
    await helper.load(nodes, flowOn(sim, { ...renderstream, operation: '' }));
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ operation: 'reboot' });
    expect((await caught).error?.message).toMatch(/"reboot" is not a RenderStream layer operation; use one of start, restart, sync, stop/);
    expect(sim.arrivals.count('POST', '/api/session/renderstream/restartlayers')).toBe(0);
  });

  it('lists the director\'s layers, with each workload\'s state, for the editor\'s layer picker', async () => {
    await helper.load(nodes, flowOn(sim, renderstream));
    await simControl(sim.mediaServer.url, { action: 'crashWorkload', layer: { name: 'Notch FX' } });
    const answer = await helper.request().get('/stagelink/layers?server=server');
    expect(answer.status).toBe(200);
    const layers = answer.body as { uid: string; name: string; detail: string }[];
    expect(layers.map(({ name, detail }) => ({ name, detail }))).toEqual([
      { name: 'Unreal Stage', detail: 'running' },
      { name: 'Notch FX', detail: 'error' },
      { name: 'TouchDesigner Data', detail: 'running' },
    ]);
    expect(layers.every((layer) => layer.uid !== '')).toBe(true);
  });

  it('shares one watch of the layers among every node on one server', async () => {
    await helper.load(nodes, flowOn(sim, renderstream, { ...renderstream, layer: 'Notch FX' }, { ...renderstream, layer: 'TouchDesigner Data' }));
    const states = collect('states');
    await eventually(() => expect(new Set(states.map((msg) => msg.topic))).toEqual(new Set(['Unreal Stage', 'Notch FX', 'TouchDesigner Data'])));
    const server = helper.getNode('server') as unknown as { connection: { layerWatchers: number } };
    expect(server.connection.layerWatchers).toBe(3);
  });
});

describe('stagelink-renderstream on a director without RenderStream (the documents\' spec)', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ dialect: 'spec', host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
  });
  afterAll(async () => {
    await sim?.close();
  });
  afterEach(async () => {
    await helper.unload();
  });

  it('says RenderStream is not offered, and an operation fails to Catch without bringing anything down', async () => {
    await helper.load(nodes, flowOn(sim, renderstream));
    const seen = statuses('n1');
    const states = collect('states');
    await eventually(() => expect(seen.at(-1)).toEqual({ fill: 'grey', shape: 'ring', text: 'not offered' }));
    expect(changeOf(states[0])).toMatchObject({ status: 'not-offered', state: null });

    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({});
    expect((await caught).error?.message).toMatch(/^NotOfferedError: /);
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'red', text: 'not in this build' }));
  });
});
