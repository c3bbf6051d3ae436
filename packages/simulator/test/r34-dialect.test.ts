import { endpointList } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { simulatorPerFile } from './support/simulator-per-file.js';

/** The simulator as a shipping r34 director: every difference from the documents the README lists. */
const sim = simulatorPerFile({ dialect: 'r34', port: 0, drivePort: 0 });

async function send(method: string, path: string, body?: unknown, base = sim().mediaServer.url, headers: Record<string, string> = {}) {
  const response = await fetch(base + path, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.startsWith('application/json') === true;
  return { status: response.status, text, json: (isJson && text ? JSON.parse(text) : undefined) as Record<string, unknown> };
}

const control = (action: Record<string, unknown>) => send('POST', '/__sim/control', action);
const main = { name: 'main' };
const activeMain = async () => {
  const { json } = await send('GET', '/api/session/transport/activetransport');
  return (json['result'] as { name: string; playmode: string; brightness: number }[]).find((transport) => transport.name === 'main');
};

describe('the r34 dialect over HTTP', () => {
  it('reports and takes playmodes as enum names, and refuses the documents\' words with the reason only in the details', async () => {
    await send('POST', '/api/session/transport/playloopsection', { transports: [main] });
    expect((await activeMain())?.playmode).toBe('Loop');
    const track = { name: 'Intro' };
    expect((await send('POST', '/api/session/transport/gototrack', { transports: [{ transport: main, track, playmode: 'Play' }] })).json).toEqual({ status: { code: 0, message: '', details: [] } });
    expect((await activeMain())?.playmode).toBe('Play');
    const refused = await send('POST', '/api/session/transport/gototrack', { transports: [{ transport: main, track, playmode: 'play' }] });
    expect(refused.status).toBe(200);
    expect(refused.json).toEqual({ status: { code: 4000, message: '', details: [{ message: expect.stringContaining("field 'playmode'") as unknown }] } });
    await send('POST', '/api/session/transport/gototrack', { transports: [{ transport: main, track, playmode: 'NotSet' }] });
    expect((await activeMain())?.playmode).toBe('Play');
    for (const [playmode, reported] of [['PlaySection', 'PlaySection'], ['Loop', 'Loop'], ['Stop', 'Stop']]) {
      await send('POST', '/api/session/transport/gototrack', { transports: [{ transport: main, track, playmode }] });
      expect((await activeMain())?.playmode).toBe(reported);
    }
    const loopSection = await send('POST', '/api/session/transport/gototrack', { transports: [{ transport: main, track, playmode: 'LoopSection' }] });
    expect(loopSection.json['status']).toMatchObject({ code: 4000, message: '' });
  });

  it('goes to a section by its 0-based index, as a number or text, and refuses a name', async () => {
    const { json } = await send('GET', '/api/session/transport/annotations?name=Preshow');
    expect((json['result'] as { annotations: { sections: unknown[] } }).annotations.sections).toEqual([{ time: 0, index: 0 }, { time: 120, index: 1 }, { time: 240, index: 2 }]);
    await send('POST', '/api/session/transport/gototrack', { transports: [{ transport: main, track: { name: 'Preshow' } }] });
    for (const section of [0, '1', 2]) {
      expect((await send('POST', '/api/session/transport/gotosection', { transports: [{ transport: main, section }] })).json['status']).toMatchObject({ code: 0 });
    }
    expect(sim().state.transports.positionOf(main).time).toBe(240);
    const refused = await send('POST', '/api/session/transport/gotosection', { transports: [{ transport: main, section: 'Chorus' }] });
    expect(refused.json['status']).toEqual({ code: 4000, message: '', details: [{ message: "Invalid value for field 'section' of type uint64" }] });
  });

  it('takes tag types in upper case only, and refuses a tag that matches nothing', async () => {
    const tag = (type: string, value = 'Q5') => send('POST', '/api/session/transport/gototag', { transports: [{ transport: main, type, value, allowGlobalJump: true }] });
    expect((await tag('CUE')).json['status']).toMatchObject({ code: 0 });
    expect((await tag('cue')).json['status']).toEqual({ code: 4000, message: '', details: [{ message: expect.stringContaining('Q5') as unknown }] });
    expect((await tag('TC', '10:05:00:00')).json['status']).toMatchObject({ code: 0 });
    expect((await tag('TagType_Unknown')).json['status']).toMatchObject({ code: 4000, message: '' });
  });

  it('takes timecode with a colon or a dot before the frames', async () => {
    for (const timecode of ['10:05:00:00', '10:08:00.15']) {
      expect((await send('POST', '/api/session/transport/gototimecode', { transports: [{ transport: main, timecode }] })).json['status'], timecode).toMatchObject({ code: 0 });
    }
    expect(sim().state.transports.positionOf(main)).toMatchObject({ track: { name: 'Act 1' }, time: 0.5 });
  });

  it('refuses transport speed with code 1000 until the project enables it', async () => {
    const speed = () => send('POST', '/api/session/transport/speed', { transports: [{ transport: main, speed: 2 }] });
    expect((await speed()).json['status']).toEqual({
      code: 1000,
      message: '',
      details: [{ message: "Transport speed control is disabled. Enable the 'enableTransportSpeedControl' option to use it." }],
    });
    const summary = await control({ action: 'projectOption', name: 'enableTransportSpeedControl', on: true });
    expect(summary.json).toMatchObject({ dialect: 'r34', projectOptions: ['enableTransportSpeedControl'] });
    expect((await speed()).json['status']).toMatchObject({ code: 0 });
    expect((await control({ action: 'status' })).json['speeds']).toMatchObject({ main: 2 });
  });

  it('reports ready health in lower-case categories, and Windows machine names', async () => {
    const health = (await send('GET', '/api/session/status/health')).json['result'] as { status: { states: { category: string; severity: string }[] } }[];
    const states = health.flatMap((entry) => entry.status.states);
    expect(states.map((state) => state.severity)).toContain('ready');
    expect(states.map((state) => state.severity)).not.toContain('ok');
    expect(states.every((state) => state.category === state.category.toLowerCase())).toBe(true);
    const session = (await send('GET', '/api/session/status/session')).json['result'] as { director: { hostname: string }; actors: { hostname: string }[] };
    expect([session.director.hostname, ...session.actors.map((actor) => actor.hostname)]).toEqual(['DIRECTOR01', 'ACTOR01', 'ACTOR02']);
  });

  it('answers a plain 404 for what the build lacks, hardware included, and describes what it offers', async () => {
    const looks = await send('GET', '/api/session/looks');
    expect([looks.status, looks.text]).toEqual([404, 'No such endpoint: GET /api/session/looks.']);
    expect((await send('GET', '/api/session/transport/rewind')).status).toBe(404);
    expect((await send('GET', '/api/chassis/power/status')).status).toBe(404);
    expect((await send('GET', '/api/ledstrip')).status).toBe(404);
    const { json } = await send('GET', '/docs/session/d3api.swagger.json');
    expect(json).toMatchObject({ swagger: '2.0', info: { title: 'd3 API', version: '2.0.3' } });
    // The session family, under its base path, as a shipping director describes it.
    expect(json['basePath']).toBe('/api/session');
    const operations = Object.entries(json['paths'] as Record<string, object>).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} /api/session${path}`));
    const offered = endpointList.filter((endpoint) => endpoint.family === 'session' && endpoint.path !== '/api/session/looks');
    expect(operations.sort()).toEqual(offered.map((endpoint) => `${endpoint.method} ${endpoint.path}`).sort());
    expect(operations).toContain('POST /api/session/transport/speed');
  });

  it('serves the hardware family on its own management address, writes with the account only', async () => {
    const smc = sim().smc;
    if (!smc) throw new Error('an r34 machine has a management controller');
    const account = { authorization: `Basic ${Buffer.from(`${smc.username}:${smc.password}`).toString('base64')}` };
    const wrong = { authorization: `Basic ${Buffer.from(`${smc.username}:nope`).toString('base64')}` };
    expect(await send('GET', '/api/chassis/power/status', undefined, smc.url)).toMatchObject({
      status: 200,
      json: { 'System Power': 'on', 'Power Overload': false, 'Main Power Fault': false, 'Power Control Fault': false },
    });
    const notice = { priority: 1, title: 'FOH', message: 'Doors in 5' };
    expect((await send('POST', '/api/oled/notification', notice, smc.url)).status).toBe(401);
    expect((await send('POST', '/api/oled/notification', notice, smc.url, wrong)).status).toBe(401);
    expect((await send('POST', '/api/oled/notification', notice, smc.url, account)).status).toBe(201);
    expect((await send('POST', '/api/oled/notification', { ...notice, priority: 3 }, smc.url, account)).status).toBe(400);
    expect((await send('POST', '/api/ledstrip', { ledMode: 'rainbow', ledR: 1, ledG: 2, ledB: 3 }, smc.url, account)).status).toBe(200);
    expect((await send('GET', '/api/ledstrip', undefined, smc.url)).json).toEqual({ ledMode: 'rainbow', ledR: 1, ledG: 2, ledB: 3 });
    expect(await send('POST', '/api/oled/notification/time', { time: 30 }, smc.url, account)).toMatchObject({ status: 201 });
    expect((await send('POST', '/api/chassis/power/off', undefined, smc.url, account)).status).toBe(200);
    expect((await send('GET', '/api/chassis/power/status', undefined, smc.url)).json).toMatchObject({ 'System Power': 'off' });
    expect((await send('GET', '/api/session/status/session', undefined, smc.url)).status).toBe(404);
    expect((await send('POST', '/__sim/control', { action: 'status' }, smc.url)).json).toMatchObject({ dialect: 'r34' });
  });
});

describe('the r34 dialect over the live stream', () => {
  /** A live socket that collects every frame. */
  async function openLive() {
    const socket = new WebSocket(`${sim().mediaServer.url.replace('http', 'ws')}/api/session/liveupdate`);
    const frames: Record<string, unknown>[] = [];
    socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const subscribe = (object: string, property: string) =>
      socket.send(JSON.stringify({ subscribe: { object, properties: [property], configuration: { updateFrequencyMs: 50 } } }));
    const idOf = async (object: string, property: string) => {
      await until(() => frames.some((frame) => entries(frame).some((entry) => entry.objectPath === object && entry.propertyPath === property)));
      const entry = frames.flatMap(entries).find((each) => each.objectPath === object && each.propertyPath === property);
      return entry?.id ?? -1;
    };
    const valuesOf = (id: number) => frames.flatMap((frame) => ((frame['valuesChanged'] as { id: number; value: unknown }[] | undefined) ?? []).filter((change) => change.id === id).map((change) => change.value));
    return { socket, frames, subscribe, idOf, valuesOf };
  }
  const entries = (frame: Record<string, unknown>) => (frame['subscriptions'] as { id: number; objectPath: string; propertyPath: string }[] | undefined) ?? [];
  const until = async (check: () => boolean) => {
    for (let tries = 0; tries < 200 && !check(); tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(check()).toBe(true);
  };

  it('lists the remote nodes as <HOSTNAME>:d3 and streams their FPS under that name only', async () => {
    const live = await openLive();
    try {
      live.subscribe('subsystem:MonitoringManager', 'object.remoteNodes()');
      const nodes = await live.idOf('subsystem:MonitoringManager', 'object.remoteNodes()');
      await until(() => live.valuesOf(nodes).length > 0);
      expect(live.valuesOf(nodes)[0]).toEqual(['ACTOR01:d3', 'ACTOR02:d3', 'UNDERSTUDY01:d3']);
      const fps = 'subsystem:MonitoringManager.findRemoteMonitor("ACTOR01:d3", "fps")';
      live.subscribe(fps, 'object.seriesAverage("Actual", 1)');
      const id = await live.idOf(fps, 'object.seriesAverage("Actual", 1)');
      await until(() => typeof live.valuesOf(id)[0] === 'number');
      live.subscribe('subsystem:MonitoringManager.findRemoteMonitor("ACTOR01:svc", "fps")', 'object.seriesAverage("Actual", 1)');
      await until(() => live.frames.some((frame) => String(frame['error']).includes('ACTOR01:svc')));
      live.subscribe('subsystem:StreamRenderSystem', 'object.getWorkloadInstances(1)');
      await until(() => live.frames.some((frame) => String(frame['error']).includes('StreamRenderSystem')));
      live.subscribe('subsystem:RenderStreamSystem', 'object.getWorkloadInstances(1)');
      expect(await live.idOf('subsystem:RenderStreamSystem', 'object.getWorkloadInstances(1)')).toBeGreaterThanOrEqual(0);
    } finally {
      live.socket.close();
    }
  });

  it('writes a transport\'s brightness through set as a 32-bit float, seen by REST too', async () => {
    const live = await openLive();
    try {
      live.subscribe('transportmanager:main', 'object.brightness');
      const id = await live.idOf('transportmanager:main', 'object.brightness');
      live.socket.send(JSON.stringify({ set: [{ id, value: 0.95 }] }));
      await until(() => live.valuesOf(id).includes(Math.fround(0.95)));
      // A set has no answer: the next frame waits as a paced client's does, or r34 loses it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await activeMain())?.brightness).toBe(Math.fround(0.95));
      live.socket.send(JSON.stringify({ set: [{ id: 999, value: 1 }] }));
      await until(() => live.frames.some((frame) => String(frame['error']).includes('no subscription with id 999')));
      const closed = new Promise((resolve) => live.socket.once('close', resolve));
      live.socket.send(JSON.stringify({ set: [{ id, value: 'bright' }] }));
      await closed;
    } finally {
      live.socket.close();
    }
  });
});

describe('RenderStream layers in the r34 dialect', () => {
  const layerOf = async (name: string) => {
    const { json } = await send('GET', '/api/session/renderstream/layers');
    return (json['result'] as { name: string; workload: { state: string } }[]).find((layer) => layer.name === name);
  };

  it('crashes a workload on a control and brings it back running on restartlayers', async () => {
    expect((await layerOf('Unreal Stage'))?.workload.state).toBe('running');
    expect((await control({ action: 'crashWorkload', layer: { name: 'Unreal Stage' } })).status).toBe(200);
    expect((await layerOf('Unreal Stage'))?.workload).toEqual({ state: 'error', message: 'The workload exited unexpectedly' });
    const restarted = await send('POST', '/api/session/renderstream/restartlayers', { layers: [{ name: 'Unreal Stage' }] });
    expect(restarted.json).toMatchObject({ status: { code: 0 } });
    expect((await layerOf('Unreal Stage'))?.workload.state).toBe('running');
  });

  it('takes a layer out of the project on a control: no longer listed, and refused by name', async () => {
    expect((await control({ action: 'removeLayer', layer: { name: 'TouchDesigner Data' } })).status).toBe(200);
    expect(await layerOf('TouchDesigner Data')).toBeUndefined();
    expect(await layerOf('Unreal Stage')).toBeDefined();
    const refused = await send('POST', '/api/session/renderstream/restartlayers', { layers: [{ name: 'TouchDesigner Data' }] });
    expect(JSON.stringify(refused.json)).toMatch(/TouchDesigner Data.*not found/);
    expect((await control({ action: 'removeLayer', layer: { name: 'TouchDesigner Data' } })).status).toBe(400);
    await control({ action: 'reset' });
    expect(await layerOf('TouchDesigner Data')).toBeDefined();
  });

  it('stops and starts layers, and refuses an unknown layer naming the ones there are', async () => {
    await send('POST', '/api/session/renderstream/stoplayers', { layers: [{ name: 'Notch FX' }] });
    expect((await layerOf('Notch FX'))?.workload.state).toBe('stopped');
    await send('POST', '/api/session/renderstream/startlayers', { layers: [{ name: 'Notch FX' }] });
    expect((await layerOf('Notch FX'))?.workload.state).toBe('running');
    const unknown = await send('POST', '/api/session/renderstream/restartlayers', { layers: [{ name: 'Nope' }] });
    expect(JSON.stringify(unknown.json)).toMatch(/Nope.*not found.*Unreal Stage/);
  });

  it("describes and answers a later build's command added by describeCommand, until a reset", async () => {
    const added = await control({ action: 'describeCommand', path: 'renderstream/layerhealth', summary: 'Health of a layer', body: { layer: 'Ref' } });
    expect(added.status).toBe(200);
    const described = (await send('GET', '/docs/session/d3api.swagger.json')).json['paths'] as Record<string, { post?: { summary: string; parameters: { schema: unknown }[] } }>;
    expect(described['/renderstream/layerhealth']?.post).toEqual({ summary: 'Health of a layer', parameters: [{ in: 'body', name: 'body', required: true, schema: { type: 'object', properties: { layer: { $ref: '#/definitions/Ref' } } } }] });
    const answer = await send('POST', '/api/session/renderstream/layerhealth', { layer: { name: 'Notch FX' } });
    expect(answer.json).toMatchObject({ status: { code: 0 }, result: { received: { layer: { name: 'Notch FX' } } } });
    expect((await control({ action: 'describeCommand', path: 'x', body: { layer: 'Layer' } })).status).toBe(400);
    await control({ action: 'reset' });
    expect((await send('POST', '/api/session/renderstream/layerhealth', {})).status).toBe(404);
  });

  it('describes the recorded commands beyond the documents', async () => {
    const { json } = await send('GET', '/docs/session/d3api.swagger.json');
    const paths = Object.keys(json['paths'] as object);
    for (const path of ['renderstream/restartlayers', 'renderstream/failoverpool', 'sockpuppet/live', 'omnical/rigcheck/executeplan', 'python/execute', 'status/setguimode']) {
      expect(paths).toContain(`/${path}`);
    }
    const restart = (json['paths'] as Record<string, { post: { parameters: { schema: unknown }[] } }>)['/renderstream/restartlayers'];
    expect(restart?.post.parameters[0]?.schema).toEqual({ type: 'object', properties: { layers: { type: 'array', items: { $ref: '#/definitions/Ref' } } } });
  });
});
