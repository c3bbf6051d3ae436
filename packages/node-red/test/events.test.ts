import { classifyFps, livePresets, type FpsAlert, type LiveSubscription, type MediaServer } from '@stagelink/core';
import { startSimulator, type Simulator } from '@stagelink/simulator';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, control, eventually, flowWith, helper, hostnames, nodeModules, statuses, useSessionSimulator, useSimulatorAndClient, type Msg } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-events');

const ALL_KINDS = { director: true, playmode: true, track: true, health: true, takeover: true, fps: true, connection: true };
const ONLY = (...kinds: (keyof typeof ALL_KINDS)[]) => Object.fromEntries(Object.keys(ALL_KINDS).map((kind) => [kind, kinds.includes(kind as keyof typeof ALL_KINDS)]));

/** An events node polling every second; `settings` picks the kinds and the rest. */
const eventsNode = (settings: Record<string, unknown>) => ({ type: 'stagelink-events', interval: 1, fpsTarget: 60, fpsWindow: 10, machines: '', ...ALL_KINDS, ...settings });


/** The config node's shared client: what the events node polls and watches through. */
const sharedClient = (): MediaServer => (helper.getNode('server') as unknown as { connection: { client: MediaServer } }).connection.client;

/** Waits until the node has seen the show once (its status says online), so later changes are changes. */
async function watching(seen: { text?: string }[]): Promise<void> {
  await eventually(() => expect(seen.some((status) => status.text?.endsWith('online'))).toBe(true));
}

const ofTopic = (messages: Msg[], topic: string) => messages.filter((msg) => msg.topic === topic);

describe('stagelink-events', () => {
  let sim: Simulator;
  let client: MediaServer;
  useSimulatorAndClient((started, startedClient) => {
    sim = started;
    client = startedClient;
  });

  it('sends nothing for what it sees first, however far from healthy, and shows what it watches', async () => {
    // Far below a 200 FPS target every machine is in error from its first full average: still no event.
    await helper.load(nodes, flowWith(sim, eventsNode({ fpsTarget: 200, fpsWindow: 2 })));
    const seen = statuses('n1');
    const events = collect('out');
    await watching(seen);
    await sleep(2500);
    expect(events).toEqual([]);
    expect(seen.at(-1)).toMatchObject({ fill: 'green', text: '4 machines online' });
  });

  it('sends one track event and one playmode event per real change of a transport', async () => {
    await helper.load(nodes, flowWith(sim, eventsNode(ONLY('playmode', 'track'))));
    const events = collect('out');
    await watching(statuses('n1'));

    await client.transport.gotoTrack({ transport: { name: 'main' }, track: { name: 'Act 1' }, playmode: 'stop' });
    await eventually(() => expect(ofTopic(events, 'transport/main/track')).toHaveLength(1));
    expect(events[0]).toMatchObject({ event: 'track', payload: { value: 'Act 1', previous: 'Preshow', transport: 'main' } });

    await client.transport.play({ name: 'main' });
    await eventually(() => expect(ofTopic(events, 'transport/main/playmode')).toHaveLength(1));
    expect(ofTopic(events, 'transport/main/playmode')[0]).toMatchObject({
      event: 'playmode',
      payload: { value: 'Play', previous: 'Stop', transport: 'main', playing: true, wasPlaying: false },
    });
    // Act 1 runs for fifteen minutes: nothing else changed, so nothing else is sent.
    await sleep(2200);
    expect(events.map((msg) => msg.topic)).toEqual(['transport/main/track', 'transport/main/playmode']);
  });

  it('sends one health and one takeover event per machine when an actor fails over, and again when it is restored', async () => {
    const { actor1, understudy } = hostnames(sim);
    await helper.load(nodes, flowWith(sim, eventsNode(ONLY('health', 'takeover'))));
    const events = collect('out');
    await watching(statuses('n1'));
    // The takeover values have arrived once (only noted) before anything changes.
    await eventually(() => expect(sim.live.stats().subscriptions).toBe(4));
    await sleep(500);

    await client.failover.failoverMachine({ name: 'Actor 1' });
    await eventually(() => expect(events).toHaveLength(2));
    await sleep(2200);
    expect(ofTopic(events, `machine/${actor1}/health`)).toEqual([
      expect.objectContaining({ event: 'health', payload: { value: 'offline', previous: 'ok', machine: actor1 } }),
    ]);
    expect(ofTopic(events, `machine/${understudy}/takeover`)).toEqual([
      expect.objectContaining({ event: 'takeover', payload: { value: true, previous: false, machine: understudy } }),
    ]);

    await client.failover.restoreMachine({ name: 'Actor 1' });
    await eventually(() => expect(events).toHaveLength(4));
    await sleep(2200);
    expect(events.slice(2).map((msg) => [msg.topic, (msg.payload as { value: unknown }).value])).toEqual(
      expect.arrayContaining([
        [`machine/${actor1}/health`, 'ok'],
        [`machine/${understudy}/takeover`, false],
      ]),
    );
    expect(events).toHaveLength(4);
  });

  it('sends an FPS event exactly when the class of the rolling average changes', async () => {
    const { actor1 } = hostnames(sim);
    // Samples jitter between 59.34 and 59.94: against this target they fall either side of the warning threshold.
    const target = 64.64;
    await helper.load(nodes, flowWith(sim, eventsNode({ ...ONLY('fps'), machines: actor1.toUpperCase(), fpsTarget: target, fpsWindow: 1 })));
    const events = collect('out');
    await watching(statuses('n1'));

    // The same values on the same shared subscription, each after the node has had it, until they have crossed
    // a threshold a few times (a 5 s dip of the simulated machine keeps them all in one class for a while).
    const samples: number[] = [];
    const changes = (): { value: FpsAlert; previous: FpsAlert; fps: number | undefined }[] => {
      const classes: FpsAlert[] = samples.map((sample) => classifyFps(sample, target));
      return classes.flatMap((alert, index) => {
        const previous = classes[index - 1];
        return index > 0 && previous !== undefined && previous !== alert ? [{ value: alert, previous, fps: samples[index] }] : [];
      });
    };
    let watcher: LiveSubscription | undefined;
    await eventually(() => {
      watcher ??= sharedClient().live.subscribe(livePresets.remoteFps(actor1), ({ value }) => {
        if (typeof value === 'number') samples.push(value);
      });
      expect(changes().length).toBeGreaterThan(2);
    }, 20_000);
    await control(sim, { action: 'pause', on: true });
    watcher?.close();
    await sleep(300);

    const expected = changes();
    const sent = events.map((msg) => msg.payload as { value: FpsAlert; previous: FpsAlert; fps: number });
    expect(sent.slice(-expected.length).map(({ value, previous, fps }) => ({ value, previous, fps }))).toEqual(expected);
    for (const msg of events) expect(msg).toMatchObject({ topic: `machine/${actor1}/fps`, event: 'fps', payload: { machine: actor1, target } });
  }, 40_000);

  it('releases its subscriptions and listeners when a deploy removes it, keeping the server\'s connection', async () => {
    const flow = flowWith(sim, eventsNode({}));
    await helper.load(nodes, flow);
    await eventually(() => expect(sim.live.stats().subscriptions).toBeGreaterThan(4));
    const shared = sharedClient();
    const listeners = { director: shared.listenerCount('director'), status: shared.live.listenerCount('status') };
    await helper.setFlows(flow.filter((node) => node['id'] !== 'n1'), 'nodes');
    await eventually(() => expect(sim.live.stats()).toMatchObject({ sockets: 0, subscriptions: 0 }));
    expect(sharedClient()).toBe(shared);
    // Its own, and those of the server's state watch, which stops with its last watcher (this node).
    expect({ director: shared.listenerCount('director'), status: shared.live.listenerCount('status') }).toEqual({
      director: listeners.director - 2,
      status: listeners.status - 2,
    });
  });
});

describe('stagelink-events when the server goes away', () => {
  let sim: Simulator;
  afterEach(async () => {
    await helper.unload();
    await sim.close();
  });

  it('sends offline once, tells Catch once, and sends online when the server is back', async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
    const port = Number(new URL(sim.mediaServer.url).port);
    await helper.load(nodes, flowWith(sim, eventsNode(ONLY('connection'))));
    const events = collect('out');
    const caught = collect('caught');
    await watching(statuses('n1'));

    await sim.close();
    await eventually(() => expect(events).toHaveLength(1));
    await sleep(2500);
    expect(events).toEqual([expect.objectContaining({ topic: 'connection', event: 'connection', payload: { value: 'offline', previous: 'online' } })]);
    expect(caught).toHaveLength(1);
    expect(caught[0]?.error?.source?.id).toBe('n1');

    sim = await startSimulator({ host: '127.0.0.1', port, drivePort: 0, seed: 1 });
    await eventually(() => expect(events).toHaveLength(2));
    await sleep(1500);
    expect(events[1]).toMatchObject({ topic: 'connection', payload: { value: 'online', previous: 'offline' } });
    expect(events).toHaveLength(2);
    expect(caught).toHaveLength(1);
  });

  it('sends offline once when the server does not answer from the deploy on, and online when it comes', async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
    const port = Number(new URL(sim.mediaServer.url).port);
    await sim.close();
    await helper.load(nodes, flowWith(sim, eventsNode(ONLY('connection'))));
    const events = collect('out');
    await eventually(() => expect(events).toHaveLength(1), 20_000);
    expect(events[0]).toMatchObject({ topic: 'connection', event: 'connection', payload: { value: 'offline', previous: null } });

    sim = await startSimulator({ host: '127.0.0.1', port, drivePort: 0, seed: 1 });
    await eventually(() => expect(events).toHaveLength(2), 20_000);
    expect(events[1]).toMatchObject({ topic: 'connection', payload: { value: 'online', previous: 'offline' } });
  });
});

describe('stagelink-events on a director that answers late', () => {
  let sim: Simulator;
  afterEach(async () => {
    await helper.unload();
    await sim.close();
  });

  const SESSION_PATH = '/api/session/status/session';
  /** Looks at the session that reached the simulator: each poll asks it once. */
  const asked = (): number => sim.arrivals.count('GET', SESSION_PATH);

  it('stays online while each look is answered 3 s late, and through one look that gets no answer in time', async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
    // The default poll of 2 s: a busy director's answer takes longer than that.
    await helper.load(nodes, flowWith(sim, eventsNode({ ...ONLY('connection'), interval: 2 })));
    const events = collect('out');
    const caught = collect('caught');
    const seen = statuses('n1');
    await watching(seen);

    await control(sim, { action: 'slowAnswer', ms: 3000, path: SESSION_PATH });
    const slow = asked();
    await eventually(() => expect(asked()).toBeGreaterThan(slow + 2), 20_000);
    // One look answered long after any deadline, then answers on time again.
    await control(sim, { action: 'slowAnswer', ms: 12_000, path: SESSION_PATH });
    const lost = asked();
    await eventually(() => expect(asked()).toBeGreaterThan(lost), 10_000);
    await control(sim, { action: 'slowAnswer', ms: 0 });
    await eventually(() => expect(asked()).toBeGreaterThan(lost + 1), 15_000);
    await sleep(2500);

    expect(events).toEqual([]);
    expect(caught).toEqual([]);
    expect(seen.map((status) => status.text)).not.toContain('offline');
    expect(seen.at(-1)).toMatchObject({ fill: 'green', text: 'online' });
  }, 60_000);

  it('sends offline once within a bounded time when the director stops answering while its port stays open', async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
    await helper.load(nodes, flowWith(sim, eventsNode({ ...ONLY('connection'), interval: 2 })));
    const events = collect('out');
    const caught = collect('caught');
    await watching(statuses('n1'));

    await control(sim, { action: 'slowAnswer', ms: 60_000, path: SESSION_PATH });
    // Two looks in a row without an answer, each given up at its deadline.
    await eventually(() => expect(events).toHaveLength(1), 20_000);
    expect(events[0]).toMatchObject({ topic: 'connection', payload: { value: 'offline', previous: 'online' } });
    expect(caught).toHaveLength(1);
  }, 40_000);
});

describe('stagelink-events in a session whose director moves', () => {
  let sim: Simulator;
  useSessionSimulator((started) => (sim = started));

  it('sends one director event per move', async () => {
    const director = sim.machines().find((machine) => machine.role === 'director');
    const next = sim.machines().find((machine) => machine.role === 'understudy');
    if (!director || !next) throw new Error('the session has a director and an understudy');
    const hosts = sim.machines().map((machine) => `${machine.hostname}=${new URL(machine.url).host}`).join('\n');
    await helper.load(nodes, [
      { id: 'tab', type: 'tab', label: 'test' },
      { id: 'server', type: 'stagelink-server', host: director.url, followDirector: true, hosts },
      { id: 'n1', z: 'tab', server: 'server', wires: [['out']], ...eventsNode(ONLY('director')) },
      { id: 'out', z: 'tab', type: 'helper' },
    ]);
    const events = collect('out');
    await watching(statuses('n1'));
    await eventually(() => expect(sharedClient().director?.hostname).toBe(director.hostname));

    await control(sim, { action: 'moveDirector', to: next.hostname });
    await eventually(() => expect(events).toHaveLength(1));
    await sleep(4000);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ topic: 'director', event: 'director', payload: { value: next.hostname, previous: director.hostname } });
  });
});
