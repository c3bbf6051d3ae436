import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Dialect } from '../src/options.js';
import { simControl, startSimulator, type ControlRequest, type Simulator } from '../src/index.js';

/** The live-update stream in each dialect, over real sockets: names, remote nodes, property errors and writes. */

type Frame = Record<string, unknown>;
interface Change {
  id: number;
  value: unknown;
}

const until = async (check: () => boolean, what: string) => {
  for (let tries = 0; tries < 300 && !check(); tries++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
};

/** What a paced client waits after a `set` before its next frame: more than the r34 back-to-back window. */
const WRITE_GAP_MS = 50;

/** A live socket that collects every frame, with helpers to subscribe and read what came back. */
async function openLive(sim: Simulator) {
  const socket = new WebSocket(`${sim.mediaServer.url.replace('http', 'ws')}/api/session/liveupdate`);
  const frames: Frame[] = [];
  socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString('utf8')) as Frame));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const entries = (frame: Frame) => (frame['subscriptions'] as { id: number; objectPath: string; propertyPath: string }[] | undefined) ?? [];
  const valuesOf = (id: number) =>
    frames.flatMap((frame) => ((frame['valuesChanged'] as Change[] | undefined) ?? []).filter((change) => change.id === id).map((change) => change.value));
  const errors = () => frames.map((frame) => frame['error']).filter((error): error is string => typeof error === 'string');
  return {
    socket,
    valuesOf,
    errors,
    latest: (id: number) => valuesOf(id).at(-1),
    /** Subscribes and answers the id the server gave the pair (after its first value). */
    subscribe: async (object: string, property: string): Promise<number> => {
      socket.send(JSON.stringify({ subscribe: { object, properties: [property], configuration: { updateFrequencyMs: 50 } } }));
      const find = () => frames.flatMap(entries).find((entry) => entry.objectPath === object && entry.propertyPath === property);
      await until(() => find() !== undefined, `the subscription to ${object} / ${property}`);
      const id = find()?.id ?? -1;
      await until(() => valuesOf(id).length > 0, `a value of ${object} / ${property}`);
      return id;
    },
    /** Subscribes to a pair the server refuses, and answers its error text. */
    refused: async (object: string, property: string): Promise<string> => {
      const before = errors().length;
      socket.send(JSON.stringify({ subscribe: { object, properties: [property] } }));
      await until(() => errors().length > before, `a refusal of ${object}`);
      return errors()[before] ?? '';
    },
    /** Writes, then leaves the gap a paced client leaves after a write (r34 loses a frame sent right behind a `set`). */
    set: async (id: number, value: unknown) => {
      socket.send(JSON.stringify({ set: [{ id, value }] }));
      await new Promise((resolve) => setTimeout(resolve, WRITE_GAP_MS));
    },
    close: () => socket.close(),
  };
}

type Live = Awaited<ReturnType<typeof openLive>>;

async function rest(sim: Simulator, method: string, path: string, body?: unknown) {
  const response = await fetch(sim.mediaServer.url + path, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return (await response.json()) as Record<string, unknown>;
}

const control = (sim: Simulator, request: ControlRequest) => simControl(sim.mediaServer.url, request);

/** The transport "main" as every dialect names it on the stream. */
const MAIN = 'transportmanager:main';
const fpsOf = (node: string) => `subsystem:MonitoringManager.findRemoteMonitor(${JSON.stringify(node)}, "fps")`;
const AVERAGE = 'object.seriesAverage("Actual", 1)';
const WORKLOAD = 'object.getWorkloadInstances(1)';

/** Opens a simulator in a dialect for a describe block, and one socket per test. */
function simulatorIn(dialect: Dialect) {
  const context = {} as { sim: Simulator; live: Live };
  beforeAll(async () => {
    context.sim = await startSimulator({ dialect, port: 0, drivePort: 0 });
  });
  afterAll(async () => {
    await context.sim.close();
  });
  beforeEach(async (test) => {
    context.sim.reset();
    context.live = await openLive(context.sim);
    test.onTestFinished(() => context.live.close());
  });
  return context;
}

/** The session's machines as `status/session` reports them, director first. */
async function sessionHostnames(sim: Simulator): Promise<string[]> {
  const session = (await rest(sim, 'GET', '/api/session/status/session'))['result'] as { director: { hostname: string }; actors: { hostname: string }[]; understudies: { hostname: string }[] };
  return [session.director.hostname, ...session.actors.map((actor) => actor.hostname), ...session.understudies.map((understudy) => understudy.hostname)];
}

describe('live update in the r34 dialect', () => {
  const context = simulatorIn('r34');

  it('lists every other machine as <HOSTNAME>:d3, the director left out', async () => {
    const [director = '', ...others] = await sessionHostnames(context.sim);
    const id = await context.live.subscribe('subsystem:MonitoringManager', 'object.remoteNodes()');
    expect(context.live.latest(id)).toEqual(others.map((hostname) => `${hostname}:d3`));
    expect(context.live.latest(id)).not.toContain(`${director}:d3`);
  });

  it('streams a remote FPS under the node name exactly as listed, and refuses the documents\' :svc as unknown', async () => {
    const [, actor = ''] = await sessionHostnames(context.sim);
    const id = await context.live.subscribe(fpsOf(`${actor}:d3`), AVERAGE);
    expect(context.live.latest(id)).toEqual(expect.any(Number));
    expect(await context.live.refused(fpsOf(`${actor}:svc`), AVERAGE)).toBe(
      `Unable to subscribe to ${fpsOf(`${actor}:svc`)} / ${AVERAGE} - Unknown object ${fpsOf(`${actor}:svc`)}`,
    );
    expect(await context.live.refused(fpsOf(`${actor.toLowerCase()}:d3`), AVERAGE)).toMatch(/Unable to find object$/);
  });

  it('knows the stream render subsystem as RenderStreamSystem only', async () => {
    const id = await context.live.subscribe('subsystem:RenderStreamSystem', WORKLOAD);
    expect(context.live.latest(id)).toHaveLength(3);
    const refusal = await context.live.refused('subsystem:StreamRenderSystem', WORKLOAD);
    expect(refusal).toBe(`Unable to subscribe to subsystem:StreamRenderSystem / ${WORKLOAD} - Unknown object subsystem:StreamRenderSystem`);
    expect(refusal).not.toMatch(/unable to find object/i);
  });

  it('answers the health of an instance that does not run as an "out of range" property error', async () => {
    const stopped = await context.live.subscribe('subsystem:RenderStreamSystem', 'object.getWorkloadInstance(3, 0).health()');
    expect(context.live.latest(stopped)).toEqual({ errorType: 'propertyPathError', message: expect.stringContaining('out of range') as unknown });
    const beyond = await context.live.subscribe('subsystem:RenderStreamSystem', 'object.getWorkloadInstance(1, 3).health()');
    expect(context.live.latest(beyond)).toMatchObject({ errorType: 'propertyPathError', message: expect.stringContaining('out of range') as unknown });
    const running = await context.live.subscribe('subsystem:RenderStreamSystem', 'object.getWorkloadInstance(1, 2).health()');
    expect(['ok', 'warning']).toContain(context.live.latest(running));
  });

  it('closes the socket on a set of the wrong JSON type', async () => {
    const id = await context.live.subscribe(MAIN, 'object.brightness');
    const before = context.live.latest(id);
    const closed = new Promise<number>((resolve) => context.live.socket.once('close', resolve));
    void context.live.set(id, 'bright');
    expect(await closed).toBe(1003);
    expect(context.sim.state.transports.list().find((transport) => transport.name === 'main')?.brightness).toBe(before);
  });

  it('names a transport transportmanager:<name with spaces as _>, unquoted, and refuses the documents\' quoted form as unknown', async () => {
    const { live, sim } = context;
    const side = sim.state.transports.list().find((transport) => transport.name === 'side screens');
    expect(live.latest(await live.subscribe('transportmanager:side_screens', 'str(object.uid)'))).toBe(side?.uid);
    expect(live.latest(await live.subscribe('transportmanager:default', 'object.volume'))).toBe(1);
    const quoted = 'transportManager:"side screens"';
    expect(await live.refused(quoted, 'object.volume')).toBe(`Unable to subscribe to ${quoted} / object.volume - Unknown object ${quoted}`);
    expect(await live.refused('transportManager:"main"', 'object.volume')).toMatch(/- Unknown object transportManager:"main"$/);
    expect(await live.refused('transportmanager:nowhere', 'object.volume')).toMatch(/Unable to find object$/);
  });
});

describe('live update in the spec dialect', () => {
  const context = simulatorIn('spec');

  it('names remote monitors <hostname>:svc, for every machine of the session', async () => {
    const hostnames = await sessionHostnames(context.sim);
    for (const hostname of hostnames) {
      const id = await context.live.subscribe(fpsOf(`${hostname}:svc`), AVERAGE);
      expect(context.live.latest(id)).toEqual(expect.any(Number));
    }
    const actor = hostnames[1] ?? '';
    expect(await context.live.refused(fpsOf(`${actor}:d3`), AVERAGE)).toMatch(/- Unknown object /);
  });

  it('answers remoteNodes() as a property path error', async () => {
    const id = await context.live.subscribe('subsystem:MonitoringManager', 'object.remoteNodes()');
    expect(context.live.latest(id)).toEqual({ errorType: 'propertyPathError', message: expect.stringContaining('object.remoteNodes()') as unknown });
  });

  it('knows the stream render subsystem as StreamRenderSystem only', async () => {
    const id = await context.live.subscribe('subsystem:StreamRenderSystem', WORKLOAD);
    expect(context.live.latest(id)).toHaveLength(3);
    expect(await context.live.refused('subsystem:RenderStreamSystem', WORKLOAD)).toBe(
      `Unable to subscribe to subsystem:RenderStreamSystem / ${WORKLOAD} - Unknown object subsystem:RenderStreamSystem`,
    );
  });

  it('answers the health of an instance that does not run as the documents\' evaluation error', async () => {
    const id = await context.live.subscribe('subsystem:StreamRenderSystem', 'object.getWorkloadInstance(3, 0).health()');
    expect(context.live.latest(id)).toEqual({ errorType: 'EvaluationError', message: expect.stringContaining('workload 3 has no instance 0') as unknown });
  });

  it('names a transport as the documents do, quoted or default, and also as shipping directors do', async () => {
    const { live, sim } = context;
    const side = sim.state.transports.list().find((transport) => transport.name === 'side screens');
    for (const object of ['transportManager:"side screens"', 'transportmanager:side_screens']) {
      expect(live.latest(await live.subscribe(object, 'str(object.uid)'))).toBe(side?.uid);
    }
    expect(live.latest(await live.subscribe('transportManager:default', 'object.brightness'))).toBe(1);
    expect(await live.refused('transportManager:"nowhere"', 'object.volume')).toMatch(/Unable to find object$/);
  });
});

describe.each(['spec', 'r34'] as const)('live writes in the %s dialect', (dialect) => {
  const context = simulatorIn(dialect);
  const mainOf = async () => {
    const active = (await rest(context.sim, 'GET', '/api/session/transport/activetransport'))['result'] as { name: string; brightness: number; volume: number; engaged: boolean }[];
    return active.find((transport) => transport.name === 'main');
  };

  it('stores a written brightness as a 32-bit float, which REST activetransport then reports', async () => {
    const { live } = context;
    const id = await live.subscribe(MAIN, 'object.brightness');
    await live.set(id, 0.95);
    await until(() => live.latest(id) === Math.fround(0.95), 'the written brightness');
    expect(live.latest(id)).toBe(0.949999988079071);
    expect((await mainOf())?.brightness).toBe(Math.fround(0.95));
  });

  it('shows a REST change of volume on the stream, and a live volume and engaged on REST', async () => {
    const { live, sim } = context;
    const volume = await live.subscribe(MAIN, 'object.volume');
    await rest(sim, 'POST', '/api/session/transport/volume', { transports: [{ transport: { name: 'main' }, volume: 0.25 }] });
    await until(() => live.latest(volume) === 0.25, 'the volume REST set');
    await live.set(volume, 0.5);
    const engaged = await live.subscribe('transportManager:default', 'object.engaged');
    await live.set(engaged, false);
    await until(() => live.latest(engaged) === false && live.latest(volume) === 0.5, 'both writes');
    expect(await mainOf()).toMatchObject({ volume: 0.5, engaged: false });
  });

  it('ignores a level outside 0 to 1, as servers do', async () => {
    const { live } = context;
    const id = await live.subscribe(MAIN, 'object.volume');
    const before = live.latest(id);
    await live.set(id, 1.5);
    await live.set(id, 0.5);
    await until(() => live.latest(id) === 0.5, 'the value in range');
    expect(live.valuesOf(id)).toEqual([before, 0.5]);
  });

  it('sends the new value to every socket subscribed to it', async () => {
    const { live, sim } = context;
    const other = await openLive(sim);
    try {
      const theirs = await other.subscribe(MAIN, 'object.brightness');
      const mine = await live.subscribe(MAIN, 'object.brightness');
      await live.set(mine, 0.5);
      await until(() => other.latest(theirs) === 0.5, 'the value on the other socket');
    } finally {
      other.close();
    }
  });

  it('merges an object written in part: {"x": 0.01} moves only x', async () => {
    const { live } = context;
    const id = await live.subscribe('layer:"Logo"', 'object.position');
    expect(live.latest(id)).toEqual({ x: 0.75, y: 0.125 });
    await live.set(id, { x: 0.01 });
    await until(() => (live.latest(id) as { x: number }).x !== 0.75, 'the moved layer');
    expect(live.latest(id)).toEqual({ x: Math.fround(0.01), y: 0.125 });
  });

  it('answers a set on an unknown id or a read-only property with an error frame, and keeps the socket', async () => {
    const { live } = context;
    await live.set(999, 1);
    await until(() => live.errors().length > 0, 'an error');
    expect(live.errors()[0]).toBe('Unable to set: no subscription with id 999');
    const readOnly = await live.subscribe('subsystem:MonitoringManager.findLocalMonitor("fps")', AVERAGE);
    await live.set(readOnly, 30);
    await until(() => live.errors().length > 1, 'a second error');
    expect(live.errors()[1]).toMatch(/read-only property$/);
    expect(live.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('offers a transport uid as text through str(...), where a number loses digits', async () => {
    const { live, sim } = context;
    const uid = sim.state.transports.list().find((transport) => transport.name === 'side screens')?.uid ?? '';
    const text = await live.subscribe('transportmanager:side_screens', 'str(object.uid)');
    const number = await live.subscribe('transportmanager:side_screens', 'object.uid');
    expect(live.latest(text)).toBe(uid);
    expect(String(live.latest(number))).not.toBe(uid);
  });
});

describe.each(['spec', 'r34'] as const)('a transport\'s player on the stream in the %s dialect', (dialect) => {
  const context = simulatorIn(dialect);
  const PLAYER = ['object.player.tRender', 'object.player.playing', 'object.player.playMode.state', 'str(object.player.track.uid)', 'str(object.player.track.description)', 'object.engaged', 'str(object.tcStatusString)'];
  const read = async (object: string) => {
    const ids: number[] = [];
    for (const property of PLAYER) ids.push(await context.live.subscribe(object, property));
    return () => ids.map((id) => context.live.latest(id));
  };

  it('reads a stopped transport\'s playhead, playmode 3 (Stop), track and timecode status', async () => {
    const track = context.sim.state.transports.positionOf({ name: 'main' }).track;
    const main = await read('transportmanager:main');
    expect(main()).toEqual([0, false, 3, track.uid, 'Preshow', true, 'No timecode']);
  });

  it('follows a transport that plays: the playhead moves, playmode 0 (Play), then 2 (Loop) and back to 3 (Stop)', async () => {
    const { live, sim } = context;
    const main = await read('transportmanager:main');
    await rest(sim, 'POST', '/api/session/transport/play', { transports: [{ name: 'main' }] });
    await until(() => main()[2] === 0 && main()[1] === true, 'playmode Play');
    const [playhead] = main() as [number];
    await until(() => (main()[0] as number) > playhead, 'the playhead moving on');
    await rest(sim, 'POST', '/api/session/transport/playloopsection', { transports: [{ name: 'main' }] });
    await until(() => main()[2] === 2, 'playmode Loop');
    await rest(sim, 'POST', '/api/session/transport/stop', { transports: [{ name: 'main' }] });
    await until(() => main()[2] === 3 && main()[1] === false, 'playmode Stop');
    expect(live.errors()).toEqual([]);
  });

  it('reads the track a goto moves to, by uid as text and by name', async () => {
    const { sim } = context;
    const main = await read('transportmanager:main');
    await rest(sim, 'POST', '/api/session/transport/gototrack', { transports: [{ transport: { name: 'main' }, track: { name: 'Intro' }, playmode: dialect === 'r34' ? 'Play' : 'play' }] });
    const intro = sim.state.transports.tracks().find((track) => track.name === 'Intro');
    // Each property is its own subscription: their values arrive one by one.
    await until(() => main()[4] === 'Intro' && main()[3] === intro?.uid && main()[2] === 0, 'the track Intro, playing');
  });

  it('holds a frozen playhead while the transport says it plays, on the stream and on REST, until unfrozen', async () => {
    const { live, sim } = context;
    const main = await read('transportmanager:main');
    await rest(sim, 'POST', '/api/session/transport/play', { transports: [{ name: 'main' }] });
    await until(() => main()[1] === true && (main()[0] as number) > 0, 'the playhead moving');

    const summary = await control(sim, { action: 'freezePlayhead', transport: 'main', on: true });
    expect(summary.frozenPlayheads).toEqual(['main']);
    const held = sim.state.transports.positionOf({ name: 'main' }).time;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(main().slice(0, 3)).toEqual([held, true, 0]);
    expect(sim.state.transports.positionOf({ name: 'main' }).time).toBe(held);
    const playmodeOfMain = async (path: string, field: string) => {
      const transports = (await rest(sim, 'GET', `/api/session/transport/${path}`))[field] as { name: string; playmode: string }[];
      return transports.find((transport) => transport.name === 'main')?.playmode;
    };
    const playing = dialect === 'r34' ? 'Play' : 'play';
    expect(await playmodeOfMain('activetransport', 'result')).toBe(playing);
    expect(await playmodeOfMain('transports', 'transports')).toBe(playing);

    await control(sim, { action: 'freezePlayhead', transport: { name: 'main' }, on: false });
    await until(() => (main()[0] as number) > held, 'the playhead running again');
    expect(live.errors()).toEqual([]);
  });

  it('sends the playhead where a jump moves it, with no REST command, the playmode kept', async () => {
    const { sim } = context;
    const main = await read('transportmanager:main');
    const intro = sim.state.transports.tracks().find((track) => track.name === 'Intro');
    await control(sim, { action: 'jumpPlayhead', transport: 'main', time: 123.4 });
    await until(() => main()[0] === 123.4, 'the playhead at 123.4 s');
    expect(main().slice(1, 3)).toEqual([false, 3]);
    await control(sim, { action: 'jumpPlayhead', transport: 'main', track: 'Intro', time: 61 });
    await until(() => main()[0] === 61 && main()[3] === intro?.uid, 'the playhead 61 s into Intro');
    expect(sim.arrivals.count('POST', '/api/session/transport/gototime')).toBe(0);
  });

  it('refuses a jump outside the track with 400 naming it, and reset clears a freeze', async () => {
    const { sim } = context;
    const answer = await fetch(`${sim.mediaServer.url}/__sim/control`, { method: 'POST', body: JSON.stringify({ action: 'jumpPlayhead', transport: 'main', time: 400 }) });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { message: string }).message).toContain('outside track "Preshow"');
    await control(sim, { action: 'freezePlayhead', transport: 'main', on: true });
    expect((await control(sim, { action: 'reset' })).frozenPlayheads).toEqual([]);
  });

  it('answers a property a transport does not have as a property path error', async () => {
    const id = await context.live.subscribe('transportmanager:main', 'object.player.nothing');
    expect(context.live.latest(id)).toEqual({ errorType: 'propertyPathError', message: expect.stringContaining('object.player.nothing') as unknown });
  });
});

describe.each(['spec', 'r34'] as const)('a machine\'s FPS fixed with the machineFps control action (%s)', (dialect) => {
  const context = simulatorIn(dialect);
  const suffix = dialect === 'r34' ? 'd3' : 'svc';
  const LOCAL_FPS = 'subsystem:MonitoringManager.findLocalMonitor("fps")';

  it('reads the same on the machine\'s local and remote monitors, each machine its own, until set free', async () => {
    const [director = '', actor = ''] = await sessionHostnames(context.sim);
    await control(context.sim, { action: 'machineFps', hostname: director.toLowerCase(), fps: 30 });
    await control(context.sim, { action: 'machineFps', hostname: actor, fps: 25 });
    const local = await context.live.subscribe(LOCAL_FPS, AVERAGE);
    const remote = await context.live.subscribe(fpsOf(`${actor}:${suffix}`), AVERAGE);
    expect(context.live.latest(local)).toBe(30);
    expect(context.live.latest(remote)).toBe(25);

    await control(context.sim, { action: 'machineFps', hostname: actor });
    await until(() => context.live.latest(remote) !== 25, 'the actor\'s FPS running free');
    expect(context.live.latest(remote)).toBeGreaterThan(40);
    expect(context.live.latest(local)).toBe(30);
  });

  it('refuses a machine the session does not have, and an FPS that is not above 0', async () => {
    const [director = ''] = await sessionHostnames(context.sim);
    await expect(control(context.sim, { action: 'machineFps', hostname: 'NOBODY09', fps: 30 })).rejects.toThrow(director);
    await expect(control(context.sim, { action: 'machineFps', hostname: director, fps: 0 })).rejects.toThrow('above 0');
  });
});
