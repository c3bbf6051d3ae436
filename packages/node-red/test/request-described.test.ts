import { simControl, startSimulator, type Simulator } from '@stagelink/simulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DirectorCommands } from '../src/nodes/stagelink-server/admin-endpoints.js';
import { helper, nextMessage, nodeModules } from './support/harness.js';
import { startUndescribedBuild, type UndescribedBuild } from './support/undescribed-build.js';

const nodes = nodeModules('stagelink-server', 'stagelink-request');

const request = { type: 'stagelink-request', body: 'payload', bodyType: 'msg', query: '{}', queryType: 'json', params: '{}', paramsType: 'json' };

/** A command of a build newer than the catalogue, as the simulator plays it (`describeCommand`). */
const LAYER_HEALTH = { path: 'renderstream/layerhealth', summary: 'Health of a layer', body: { layer: 'Ref' } } as const;
const LAYER_HEALTH_PATH = '/api/session/renderstream/layerhealth';

/** The request node `n1` on a server at `host`, wired to helper `out`; a Catch to `caught`. */
function flowAt(host: string, node: Record<string, unknown>, followDirector = true): Record<string, unknown>[] {
  return [
    { id: 'tab', type: 'tab', label: 'test' },
    { id: 'server', type: 'stagelink-server', host, followDirector },
    { id: 'n1', z: 'tab', server: 'server', wires: [['out']], ...request, ...node },
    { id: 'out', z: 'tab', type: 'helper' },
    { id: 'catcher', z: 'tab', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', z: 'tab', type: 'helper' },
  ];
}

const commandsOf = async (): Promise<DirectorCommands> => {
  const answer = await helper.request().get('/stagelink/commands?server=server');
  expect(answer.status).toBe(200);
  return answer.body as DirectorCommands;
};

function simulatorFor(dialect: 'r34' | 'spec'): () => Simulator {
  let sim: Simulator | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ dialect, host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
  });
  afterAll(async () => {
    await sim?.close();
  });
  beforeEach(async () => {
    if (sim) await simControl(sim.mediaServer.url, { action: 'reset' });
  });
  afterEach(async () => {
    await helper.unload();
  });
  return () => {
    if (!sim) throw new Error('the simulator did not start');
    return sim;
  };
}

describe('the request node and the director\'s own description (r34)', () => {
  const simulator = simulatorFor('r34');

  it('lists, for the editor, the catalogue\'s endpoints this build lacks and the commands only its description offers', async () => {
    const sim = simulator();
    await simControl(sim.mediaServer.url, { action: 'describeCommand', ...LAYER_HEALTH });
    await helper.load(nodes, flowAt(sim.mediaServer.url, { endpoint: 'health' }));
    const commands = await commandsOf();
    expect(commands).toMatchObject({ described: true, title: 'd3 API', version: '2.0.3' });
    if (!commands.described) throw new Error('described');
    expect(commands.describedOnly).toEqual([{ method: 'POST', path: LAYER_HEALTH_PATH, summary: LAYER_HEALTH.summary }]);
    // r34 has no looks; the hardware family is its SMCs', which the description does not cover.
    expect(commands.notOffered).toContain('looks');
    expect(commands.notOffered).not.toContain('health');
    expect(commands.notOffered).not.toContain('powerOff');
  });

  it('lists no command beyond the catalogue for a build that offers none', async () => {
    await helper.load(nodes, flowAt(simulator().mediaServer.url, { endpoint: 'health' }));
    expect(await commandsOf()).toMatchObject({ described: true, version: '2.0.3', describedOnly: [] });
  });

  it('sends a command only the description offers by its path, and answers its result', async () => {
    const sim = simulator();
    await simControl(sim.mediaServer.url, { action: 'describeCommand', ...LAYER_HEALTH });
    await helper.load(nodes, flowAt(sim.mediaServer.url, { endpoint: `POST ${LAYER_HEALTH_PATH}` }));
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ payload: { layer: { name: 'Notch FX' } } });
    expect((await out).payload).toEqual({ received: { layer: { name: 'Notch FX' } } });
    expect(sim.arrivals.count('POST', LAYER_HEALTH_PATH)).toBe(1);
  });

  it('refuses, unsent, a body the description does not take, saying where', async () => {
    const sim = simulator();
    await simControl(sim.mediaServer.url, { action: 'describeCommand', ...LAYER_HEALTH });
    await helper.load(nodes, flowAt(sim.mediaServer.url, { endpoint: LAYER_HEALTH_PATH }));
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ payload: { layers: [{ name: 'Notch FX' }] } });
    expect((await caught).error?.message).toMatch(/body\.layers is not a field the director describes/);
    expect(sim.arrivals.count('POST', LAYER_HEALTH_PATH)).toBe(0);
  });

  it('refuses, unsent, a path the description does not offer, naming the build\'s API version', async () => {
    const sim = simulator();
    await helper.load(nodes, flowAt(sim.mediaServer.url, { endpoint: '' }));
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ endpoint: '/api/session/renderstream/layerhelth', payload: {} });
    expect((await caught).error?.message).toMatch(/was not sent: this director's API 2\.0\.3 offers no `renderstream\/layerhelth`/);
    expect(sim.arrivals.count('POST', '/api/session/renderstream/layerhelth')).toBe(0);
  });

  it('sends a catalogue endpoint named by its path as the catalogue sends it, guards included', async () => {
    const sim = simulator();
    await helper.load(nodes, flowAt(sim.mediaServer.url, { endpoint: '/api/session/status/health' }));
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({});
    expect(Array.isArray((await out).payload)).toBe(true);
    await helper.unload();

    await helper.load(nodes, flowAt(sim.mediaServer.url, { endpoint: 'POST /api/session/renderstream/stoplayers', body: '{"layers":[{"name":"Unreal Stage"}]}', bodyType: 'json' }));
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({});
    expect((await caught).error?.message).toMatch(/^ConfirmationRequiredError: /);
    expect(sim.arrivals.count('POST', '/api/session/renderstream/stoplayers')).toBe(0);
  });
});

describe('the request node on the documents\' spec, whose description lacks what shipping builds add', () => {
  const simulator = simulatorFor('spec');

  it('lists for the editor the catalogue\'s RenderStream commands as not offered, and nothing beyond the catalogue', async () => {
    await helper.load(nodes, flowAt(simulator().mediaServer.url, { endpoint: 'health' }));
    const commands = await commandsOf();
    expect(commands).toMatchObject({ described: true, describedOnly: [] });
    if (!commands.described) throw new Error('described');
    expect(commands.notOffered).toEqual(expect.arrayContaining(['restartLayers', 'renderStreamLayers']));
    expect(commands.notOffered).not.toContain('looks');
  });
});

describe('the request node on a director without a description (an older build)', () => {
  const simulator = simulatorFor('r34');
  let older: UndescribedBuild | undefined;
  const olderBuild = async (): Promise<UndescribedBuild> => (older ??= await startUndescribedBuild(simulator().mediaServer.url));
  afterAll(async () => {
    await older?.close();
  });

  it('tells the editor to keep the catalogue\'s list', async () => {
    await helper.load(nodes, flowAt((await olderBuild()).url, { endpoint: 'health' }, false));
    expect(await commandsOf()).toEqual({ described: false });
  });

  it('still sends the catalogue\'s endpoints', async () => {
    await helper.load(nodes, flowAt((await olderBuild()).url, { endpoint: 'health' }, false));
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({});
    expect(Array.isArray((await out).payload)).toBe(true);
  });

  it('refuses a path beyond the catalogue, unsent, saying the director does not describe its API', async () => {
    const sim = simulator();
    await helper.load(nodes, flowAt((await olderBuild()).url, { endpoint: '' }, false));
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ endpoint: `POST ${LAYER_HEALTH_PATH}`, payload: {} });
    expect((await caught).error?.message).toMatch(/is not a command of the client's catalogue, and this director does not describe its API/);
    expect(sim.arrivals.count('POST', LAYER_HEALTH_PATH)).toBe(0);
  });
});
