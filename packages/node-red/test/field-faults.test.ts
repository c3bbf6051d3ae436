import type { Simulator } from '@stagelink/simulator';
import { describe, expect, it } from 'vitest';
import { collect, control, eventually, flowWith, helper, hostnames, type Msg, nextMessage, nodeModules, statuses, useSimulator } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-liveupdate-in', 'stagelink-liveupdate-out', 'stagelink-events', 'stagelink-status', 'stagelink-transport');

/** What the "done when" allows for a silent value to be called stale, and live again, with core's default timings. */
const STALE_WITHIN_MS = 25_000;

/** The director's own FPS monitor: what a liveupdate-in node on `localFps` and an events node's director FPS watch. */
const DIRECTOR_FPS = 'findLocalMonitor("fps")';
/** The transport "main" as r34 names it on the stream: what a liveupdate-out node on its brightness writes through. */
const MAIN_TRANSPORT = 'transportmanager:main';

/**
 * The nodes against the faults venues report on shipping directors (a value that stops while the socket stays up,
 * an answer that stalls after its headers, a cue answered late): the r34 dialect only, where those builds live.
 */
describe.runIf(process.env['STAGELINK_SIM_DIALECT'] === 'r34')('the nodes on a director with field faults (r34)', () => {
  let sim: Simulator;
  useSimulator((started) => (sim = started));

  // One flow for the three nodes that watch live values: each wait for "stale" takes core's default timings.
  it('shows live values that stopped while the server answers as stale, not offline, in liveupdate-in, events and liveupdate-out, and live again when they return', async () => {
    await helper.load(nodes, [
      ...flowWith(sim, { type: 'stagelink-liveupdate-in', preset: 'localFps', interval: 100, average: 0, topic: '', wires: [['out'], ['connection']] }),
      { id: 'connection', z: 'tab', type: 'helper' },
      { id: 'n2', z: 'tab', type: 'stagelink-events', server: 'server', interval: 1, fpsTarget: 60, fpsWindow: 10, machines: '', director: false, playmode: false, track: false, health: false, takeover: false, fps: true, stale: true, connection: true, wires: [['events']] },
      { id: 'events', z: 'tab', type: 'helper' },
      { id: 'n3', z: 'tab', type: 'stagelink-liveupdate-out', server: 'server', preset: 'transportBrightness', transport: 'main', interval: 100, wires: [[]] },
    ]);
    const liveIn = statuses('n1');
    const events = statuses('n2');
    const liveOut = statuses('n3');
    const connection = collect('connection');
    const sent = collect('events');
    await nextMessage('out');
    const director = hostnames(sim).director;
    const fpsStale = `machine/${director}/fps/stale`;
    await eventually(() => expect(events.at(-1)).toMatchObject({ fill: 'green', text: expect.stringMatching(/online$/) as unknown }));
    await eventually(() => expect(liveOut.at(-1)).toEqual({ fill: 'green', shape: 'ring', text: 'ready' }));

    await control(sim, { action: 'silentLive', pattern: DIRECTOR_FPS, on: true });
    await control(sim, { action: 'silentLive', pattern: MAIN_TRANSPORT, on: true });
    await eventually(() => expect(connection.at(-1)).toMatchObject({ topic: 'localFps', payload: 'stale' }), STALE_WITHIN_MS);
    await eventually(() => expect(liveIn.at(-1)).toEqual({ fill: 'yellow', shape: 'ring', text: 'stale: no values' }));
    await eventually(() => expect(sent.find((msg) => msg.topic === fpsStale)).toMatchObject({ event: 'stale', payload: { value: true, previous: false, machine: director, watching: 'fps' } }));
    await eventually(() => expect(events.at(-1)).toEqual({ fill: 'yellow', shape: 'ring', text: `stale: ${director}` }));
    await eventually(() => expect(liveOut.at(-1)).toEqual({ fill: 'yellow', shape: 'ring', text: 'stale: no values' }), STALE_WITHIN_MS);

    await control(sim, { action: 'silentLive', pattern: DIRECTOR_FPS, on: false });
    await control(sim, { action: 'silentLive', pattern: MAIN_TRANSPORT, on: false });
    await eventually(() => expect(connection.at(-1)).toMatchObject({ payload: 'online' }), STALE_WITHIN_MS);
    await eventually(() => expect(liveIn.at(-1)).toMatchObject({ fill: 'green', shape: 'dot' }));
    await eventually(() => expect(sent.filter((msg) => msg.topic === fpsStale).at(-1)).toMatchObject({ payload: { value: false, previous: true } }));
    await eventually(() => expect(events.at(-1)).toMatchObject({ fill: 'green', text: expect.stringMatching(/online$/) as unknown }));
    await eventually(() => expect(liveOut.at(-1)).toEqual({ fill: 'green', shape: 'ring', text: 'ready' }), STALE_WITHIN_MS);

    // The link stayed up throughout: nothing said offline.
    expect(connection.map((msg) => msg.payload)).not.toContain('offline');
    expect(sent.filter((msg) => msg.event === 'connection')).toEqual([]);
    expect([...liveIn, ...events, ...liveOut].map((status) => status.text)).not.toContain('offline');
  }, 4 * STALE_WITHIN_MS);

  const MTU_WORDS = { fill: 'yellow', shape: 'dot', text: 'MTU? answers stall' };
  const stalled = (msg: Msg | undefined): unknown => (msg?.error as { code?: string } | undefined)?.code;

  it('shows a status node whose health answer stalls after its headers as reachable with large answers failing, not offline', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-status', operation: '', machine: '', machineType: 'str', interval: 0 }));
    const seen = statuses('n1');
    await control(sim, { action: 'stallBody', path: '/api/session/status/health', on: true });
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ operation: 'health', timeout: 2000 });
    const failure = await caught;
    expect(failure.error?.message).toMatch(/MTU/);
    expect(stalled(failure)).toBe('STAGELINK_ERR_STALLED_ANSWER');
    await eventually(() => expect(seen.at(-1)).toEqual(MTU_WORDS));

    // The session still answers: small answers arrive.
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'session' });
    expect((await out).topic).toBe('session');
  });

  it('shows a cue whose answer stalls after its headers as reachable with large answers failing, and tells Catch', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: 'play', transport: 'main', transportType: 'str' }));
    const seen = statuses('n1');
    await control(sim, { action: 'stallBody', path: '/api/session/transport/play', on: true });
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ timeout: 2000 });
    expect(stalled(await caught)).toBe('STAGELINK_ERR_STALLED_ANSWER');
    await eventually(() => expect(seen.at(-1)).toEqual(MTU_WORDS));
  });

  it('keeps an events node online when its transports read stalls, shows the MTU words, and tells Catch once', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-events', interval: 1, fpsTarget: 60, fpsWindow: 10, machines: '', director: false, playmode: true, track: true, health: false, takeover: false, fps: false, stale: false, connection: true }));
    const seen = statuses('n1');
    const sent = collect('out');
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'green' }));
    await control(sim, { action: 'stallBody', path: '/api/session/transport/transports', on: true });
    await eventually(() => expect(seen.at(-1)).toEqual(MTU_WORDS));
    // Another poll stalls (each waits up to 5 s for the body): Catch hears of it once.
    await new Promise((resolve) => setTimeout(resolve, 7000));
    const node = helper.getNode('n1') as unknown as { error: { getCalls(): { thisValue: unknown; args: unknown[] }[] } };
    const reported = node.error.getCalls().filter((call) => call.thisValue === node);
    expect(reported.map((call) => (call.args[0] as { code?: string }).code)).toEqual(['STAGELINK_ERR_STALLED_ANSWER']);
    expect(sent.filter((msg) => msg.event === 'connection')).toEqual([]);
    expect(seen.map((status) => status.text)).not.toContain('offline');
  }, 40_000);

  it('shows a gototrack answered late but carried out as "landed late", tells Catch, and passes nothing on', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-transport', command: 'gototrack', transport: 'main', transportType: 'str', track: '', playmode: '' }));
    const seen = statuses('n1');
    const passed = collect('out');
    // What a flow that shows the transports has read a moment before the cue: core's state from before it.
    const server = helper.getNode('server') as unknown as { connection: { client: { transport: { transports(): Promise<unknown> } } } };
    await server.connection.client.transport.transports();
    await control(sim, { action: 'slowAnswer', ms: 4000 });
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ track: 'Finale', playmode: 'play', timeout: 1500 });
    const failure = await caught;
    expect((failure.error as { code?: string } | undefined)?.code).toBe('STAGELINK_ERR_LATE_LANDED');
    expect(failure.error?.message).toMatch(/landed.*It was not sent again/);
    await eventually(() => expect(seen.at(-1)).toEqual({ fill: 'yellow', shape: 'dot', text: 'landed late' }));
    expect(passed).toEqual([]);
  });
});
