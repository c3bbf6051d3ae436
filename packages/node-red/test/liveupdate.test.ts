import { livePresets, type LivePresetName, type LiveRequest } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { describe, expect, it } from 'vitest';
import { control, eventually, helper, hostnames, type Msg, nextMessage, nodeModules, statuses, useSimulator } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-liveupdate-in');

describe('stagelink-liveupdate-in', () => {
  let sim: Simulator;
  useSimulator((started) => (sim = started));

  const flow = (node: Record<string, unknown>) => [
    { id: 'tab', type: 'tab', label: 'test' },
    { id: 'server', type: 'stagelink-server', host: sim.mediaServer.url, followDirector: true },
    { id: 'n1', z: 'tab', type: 'stagelink-liveupdate-in', server: 'server', interval: 100, average: 0, topic: '', wires: [['out'], ['connection']], ...node },
    { id: 'out', z: 'tab', type: 'helper' },
    { id: 'connection', z: 'tab', type: 'helper' },
    { id: 'catcher', z: 'tab', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', z: 'tab', type: 'helper' },
  ];

  /** The next msg on `out` (values) or `connection` that satisfies `match`. */
  const next = (match: (msg: Msg) => boolean, on = 'out'): Promise<Msg> =>
    new Promise((resolve) => {
      const out = helper.getNode(on);
      const listener = (msg: Msg): void => {
        if (!match(msg)) return;
        out?.off('input', listener);
        resolve(msg);
      };
      out?.on('input', listener);
    });
  const aValue = (msg: Msg) => typeof msg.payload === 'number';

  it('emits local FPS values with the preset as topic', async () => {
    await helper.load(nodes, flow({ preset: 'localFps' }));
    const msg = await next(aValue);
    expect(msg.topic).toBe('localFps');
    expect(msg.object).toBe('subsystem:MonitoringManager.findLocalMonitor("fps")');
    expect(msg.payload).toBeGreaterThan(0);
  });

  /** An understudy's uid: what the failoverTakeover preset watches. */
  const understudyUid = (): string => {
    const [understudy] = sim.state.machines.sessionInfo().understudies;
    if (!understudy) throw new Error('The simulator session has no understudy.');
    return understudy.uid;
  };
  const aNumber = (value: unknown) => expect(value).toEqual(expect.any(Number));
  const actorHostname = (): string => sim.state.machines.sessionInfo().actors[0]?.hostname.toLowerCase() ?? 'no actor';
  /** Every preset of core: the node settings it needs, the request they make, and what its values look like. */
  const PRESETS: Record<LivePresetName, { settings: Record<string, string>; request: () => LiveRequest; value: (value: unknown) => void }> = {
    localFps: { settings: {}, request: () => livePresets.localFps(), value: aNumber },
    // In lower case: the director names it in its own case (ACTOR01 on r34), and core finds it in any.
    remoteFps: { settings: { machine: 'actor' }, request: () => livePresets.remoteFps(actorHostname()), value: aNumber },
    cpu: { settings: {}, request: () => livePresets.cpu(), value: aNumber },
    gpuMemory: { settings: {}, request: () => livePresets.gpuMemory(), value: aNumber },
    processMemory: { settings: {}, request: () => livePresets.processMemory(), value: aNumber },
    gpuProfiler: { settings: {}, request: () => livePresets.gpuProfiler(), value: aNumber },
    failoverTakeover: {
      settings: { machine: 'understudy' },
      request: () => livePresets.failoverTakeover(understudyUid()),
      value: (value) => expect(value).toBe(false),
    },
    workloadReceiveStatuses: {
      settings: { workload: '1' },
      request: () => livePresets.workloadReceiveStatuses('1'),
      value: (value) => expect(value).toEqual([0, 1, 2].map((index) => ({ index, receiving: expect.any(Boolean) as unknown }))),
    },
    workloadInstances: {
      settings: { workload: '2' },
      request: () => livePresets.workloadInstances('2'),
      value: (value) => expect(value).toEqual([0, 1].map((index) => ({ index, health: expect.stringMatching(/^(ok|warning)$/) as unknown }))),
    },
    transportBrightness: { settings: { transport: 'main' }, request: () => livePresets.transportBrightness('main'), value: aNumber },
    transportVolume: { settings: { transport: 'main' }, request: () => livePresets.transportVolume('main'), value: aNumber },
    instanceHealth: {
      settings: { workload: '1', instance: '2' },
      request: () => livePresets.instanceHealth('1', 2),
      value: (value) => expect(value).toMatch(/^(ok|warning)$/),
    },
  };

  for (const [preset, { settings, request, value }] of Object.entries(PRESETS)) {
    it(`emits the ${preset} preset's values from the machine`, async () => {
      const machine = settings.machine === 'understudy' ? understudyUid() : settings.machine === 'actor' ? actorHostname() : settings.machine;
      await helper.load(nodes, flow({ preset, ...settings, ...(machine === undefined ? {} : { machine }) }));
      const msg = await next(() => true);
      const { object, properties, otherObjects = [], remoteMonitor } = request();
      expect(msg).toMatchObject({ topic: preset, property: properties[0] });
      // The object the server answered under: the machine's monitor node as this director names it, or the name
      // of the subsystem this build knows.
      if (remoteMonitor) expect(String(msg.object).toLowerCase()).toContain(`"${remoteMonitor.hostname.toLowerCase()}:`);
      else expect([object, ...otherObjects]).toContain(msg.object);
      value(msg.payload);
    });
  }

  it('tells the flow when the watched understudy takes over a failed machine', async () => {
    await helper.load(nodes, flow({ preset: 'failoverTakeover', machine: understudyUid() }));
    expect((await next(() => true)).payload).toBe(false);
    const takenOver = next((msg) => msg.payload === true);
    sim.state.failover.failoverMachine({ name: 'Actor 1' });
    await takenOver;
  });

  it('asks the server for updates at the node\'s interval, never faster than 20 ms, 100 ms when not set', async () => {
    const { object, properties } = livePresets.cpu();
    const intervalOnServer = async (interval: unknown): Promise<number | undefined> => {
      await helper.load(nodes, flow({ preset: 'cpu', interval }));
      await next(aValue);
      const [subscribed] = sim.live.stats().subscribed.filter((entry) => entry.object === object && entry.property === properties[0]);
      await helper.unload();
      return subscribed?.intervalMs;
    };
    expect(await intervalOnServer(750)).toBe(750);
    expect(await intervalOnServer(5)).toBe(20);
    expect(await intervalOnServer('')).toBe(100);
  });

  it('watches another machine, and custom expressions, with the node topic', async () => {
    await helper.load(nodes, flow({ preset: 'remoteFps', machine: hostnames(sim).actor1, topic: 'actor fps' }));
    expect((await next(aValue)).topic).toBe('actor fps');
    await helper.unload();
    await helper.load(
      nodes,
      flow({
        preset: 'custom',
        object: 'subsystem:MonitoringManager.findLocalMonitor("CPU")',
        properties: 'object.seriesAverage("Total", 1)\nobject.seriesAverage("Total", 10)',
      }),
    );
    const first = await next((msg) => msg.property === 'object.seriesAverage("Total", 1)');
    const second = await next((msg) => msg.property === 'object.seriesAverage("Total", 10)');
    expect(first.topic).toBe('subsystem:MonitoringManager.findLocalMonitor("CPU")');
    expect(typeof second.payload).toBe('number');
  });

  it('averages over the last N samples when asked, and says which sample came in', async () => {
    await helper.load(nodes, flow({ preset: 'cpu', average: 3 }));
    const received: Msg[] = [];
    for (let i = 0; i < 4; i++) received.push(await next(aValue));
    const samples = received.map((msg) => msg.sample as number);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(received[0]?.payload).toBeCloseTo(samples[0] ?? Number.NaN);
    expect(received[2]?.payload).toBeCloseTo(mean(samples.slice(0, 3)));
    // The window holds the last 3: the first sample has dropped out of the fourth average.
    expect(received[3]?.payload).toBeCloseTo(mean(samples.slice(1, 4)));
  });

  it('shows offline the moment the stream drops, says so on the connection output only, and comes back online', async () => {
    await helper.load(nodes, flow({ preset: 'localFps' }));
    const seen = statuses('n1');
    const values: unknown[] = [];
    helper.getNode('out')?.on('input', (msg: Msg) => values.push(msg.payload));
    await next(aValue);
    const offline = next((msg) => msg.payload === 'offline', 'connection');
    await control(sim, { action: 'refuseUpgrades', on: true });
    await control(sim, { action: 'dropSockets' });
    expect((await offline).topic).toBe('localFps');
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'red', shape: 'ring', text: 'offline' }));
    const online = next((msg) => msg.payload === 'online', 'connection');
    await control(sim, { action: 'refuseUpgrades', on: false });
    await online;
    await next(aValue);
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'green', shape: 'dot' }));
    // A gauge or chart on the value output never sees a word.
    expect(values.every((value) => typeof value === 'number')).toBe(true);
  });

  it('watches another value when a msg says subscribe, and stops on unsubscribe', async () => {
    await helper.load(nodes, flow({ preset: 'localFps' }));
    expect((await next(aValue)).topic).toBe('localFps');
    helper.getNode('n1')?.receive({ action: 'subscribe', preset: 'transportVolume', transport: 'main' });
    expect((await next((msg) => msg.topic === 'transportVolume')).payload).toEqual(expect.any(Number));
    // Only the new target: no FPS value arrives once the volume is being watched.
    const topics: unknown[] = [];
    helper.getNode('out')?.on('input', (msg: Msg) => topics.push(msg.topic));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(topics.filter((topic) => topic !== 'transportVolume')).toEqual([]);

    helper.getNode('n1')?.receive({ action: 'unsubscribe' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const count = topics.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(topics).toHaveLength(count);
    await eventually(() => expect(sim.live.stats().subscriptions).toBe(0));

    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ action: 'watch' });
    expect((await caught).error?.message).toMatch(/msg\.action must be "subscribe" or "unsubscribe"/);
  });

  it('keeps the latest value in flow context under its topic, and null while the stream is down', async () => {
    await helper.load(nodes, flow({ preset: 'localFps', topic: 'fps', store: 'flow' }));
    const node = helper.getNode('n1') as unknown as { context(): { flow: { get(key: string): unknown } } };
    const value = await next(aValue);
    await eventually(() => expect(node.context().flow.get('fps')).toEqual(expect.any(Number)));
    expect(value.topic).toBe('fps');
    const offline = next((msg) => msg.payload === 'offline', 'connection');
    await control(sim, { action: 'refuseUpgrades', on: true });
    await control(sim, { action: 'dropSockets' });
    await offline;
    expect(node.context().flow.get('fps')).toBeNull();
    await control(sim, { action: 'refuseUpgrades', on: false });
  });

  it('sets the kept value to null when told to unsubscribe, under the old topic when the topic changes, and when a deploy removes the node', async () => {
    const flowNodes = flow({ preset: 'localFps', topic: 'fps', store: 'flow' });
    await helper.load(nodes, flowNodes);
    const node = helper.getNode('n1') as unknown as { context(): { flow: { get(key: string): unknown } } };
    // The tab's flow context: a dashboard reads it whether or not the node still runs.
    const kept = node.context().flow;
    await eventually(() => expect(kept.get('fps')).toEqual(expect.any(Number)));

    helper.getNode('n1')?.receive({ action: 'unsubscribe' });
    await eventually(() => expect(sim.live.stats().subscriptions).toBe(0));
    expect(kept.get('fps')).toBeNull();

    helper.getNode('n1')?.receive({ action: 'subscribe' });
    await eventually(() => expect(kept.get('fps')).toEqual(expect.any(Number)));
    helper.getNode('n1')?.receive({ action: 'subscribe', preset: 'cpu', topic: 'cpu' });
    await eventually(() => expect(kept.get('cpu')).toEqual(expect.any(Number)));
    expect(kept.get('fps')).toBeNull();

    await helper.setFlows(flowNodes.filter((entry) => entry['id'] !== 'n1'), 'nodes');
    await eventually(() => expect(sim.live.stats().subscriptions).toBe(0));
    expect(kept.get('cpu')).toBeNull();
  });

  it('tells the flow "online" once when it joins a socket another node opened', async () => {
    await helper.load(nodes, flow({ preset: 'localFps' }));
    await next(aValue);
    const joined = [
      ...flow({ preset: 'localFps' }),
      { id: 'n2', z: 'tab', type: 'stagelink-liveupdate-in', server: 'server', preset: 'cpu', interval: 100, average: 0, topic: 'cpu', wires: [[], ['connection']] },
    ];
    // n1 is unchanged by a "nodes" deploy: what reaches the connection output now comes from n2.
    const told: unknown[] = [];
    helper.getNode('connection')?.on('input', (msg: Msg) => told.push(msg.payload));
    await helper.setFlows(joined, 'nodes');
    await eventually(() => expect(told).toContain('online'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(told).toEqual(['online']);
  });

  it('reports a subscription the server refuses to Catch once, not on every retry, and shows red', async () => {
    await helper.load(nodes, flow({ preset: 'custom', object: 'getByUID(123)', properties: 'object.hasTakenOverFailedMachine()' }));
    const seen = statuses('n1');
    const caught = await nextMessage('caught');
    expect(caught.error?.message).toMatch(/getByUID\(123\)/);
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'red' }));
    // Core retries "Unable to find object" (a project still loading) within a second or two.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const node = helper.getNode('n1') as unknown as { error: { getCalls(): { thisValue: unknown }[] } };
    expect(node.error.getCalls().filter((call) => call.thisValue === node)).toHaveLength(1);
  });

  it('reports settings it cannot subscribe with (a preset without its hostname) with a msg, so Catch sees it', async () => {
    await helper.load(nodes, flow({ preset: 'remoteFps', machine: '' }));
    const node = helper.getNode('n1') as unknown as { error: { getCalls(): { thisValue: unknown; args: unknown[] }[] } };
    await eventually(() => {
      const calls = node.error.getCalls().filter((call) => call.thisValue === node);
      expect(calls).toHaveLength(1);
      expect((calls[0]?.args[0] as Error).message).toMatch(/remoteFps preset needs the hostname/);
      expect(calls[0]?.args[1]).toMatchObject({ topic: 'remoteFps' });
    });
  });
});
