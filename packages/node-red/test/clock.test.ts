import type { MediaServer, ShowClockSnapshot } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { allNodes, collect, control, eventually, helper, type Msg, nextMessage, nodeModules, statuses, useSimulatorAndClient } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-clock', 'stagelink-liveupdate-in');
const MAIN = { name: 'main' };
/** Core's defaults call a playhead standing still while playing stale after 5 s; the subscription's probe follows. */
const STALE_WITHIN_MS = 25_000;
/** Every live transport object, in either dialect's naming: what `silentLive` quiets to freeze the playhead. */
const TRANSPORT_OBJECTS = 'transportmanager';

/** The core nodes the dashboard example wires its widgets with. */
const fromNodeRed = createRequire(createRequire(import.meta.url).resolve('node-red'));
const coreNodes = ['common/20-inject.js', 'common/90-comment.js', 'function/10-switch.js', 'function/15-change.js'].map((file) => fromNodeRed(`@node-red/nodes/core/${file}`) as unknown);

type FlowNode = Record<string, unknown> & { id: string; type: string };
/** Dashboard 2.0's config nodes: the page, not the flow. */
const DASHBOARD_CONFIG = ['ui-base', 'ui-page', 'ui-group', 'ui-theme'];

/**
 * The show-monitor example as a user imports it, pointed at the simulator, with every dashboard widget a helper of
 * the same id and wires: the test sees each msg the page would show.
 */
function dashboardExample(sim: Simulator): FlowNode[] {
  const flow = JSON.parse(readFileSync(new URL('../examples/show-monitor-dashboard.json', import.meta.url), 'utf8')) as FlowNode[];
  return flow
    .filter((node) => !DASHBOARD_CONFIG.includes(node.type))
    .map((node) => {
      if (node.type === 'stagelink-server') return { ...node, host: sim.mediaServer.url };
      if (node.type.startsWith('ui-')) return { id: node.id, z: node['z'], type: 'helper', wires: node['wires'] ?? [] };
      return node;
    });
}

/** The example's countdown: the ui-text labelled Countdown. */
function countdownId(): string {
  const flow = JSON.parse(readFileSync(new URL('../examples/show-monitor-dashboard.json', import.meta.url), 'utf8')) as FlowNode[];
  const countdown = flow.find((node) => node.type === 'ui-text' && node['label'] === 'Countdown');
  if (!countdown) throw new Error('The show-monitor example has no ui-text labelled Countdown.');
  return countdown.id;
}

describe('stagelink-clock', () => {
  let sim: Simulator;
  let client: MediaServer;
  useSimulatorAndClient((started, startedClient) => {
    sim = started;
    client = startedClient;
  });

  const flow = (settings: Record<string, unknown> = {}) => [
    { id: 'tab', type: 'tab', label: 'test' },
    { id: 'server', type: 'stagelink-server', host: sim.mediaServer.url, followDirector: true },
    { id: 'n1', z: 'tab', type: 'stagelink-clock', server: 'server', transport: 'main', transportType: 'str', rate: 4, thresholds: '30,10,5', wires: [['clock'], ['events']], ...settings },
    { id: 'clock', z: 'tab', type: 'helper' },
    { id: 'events', z: 'tab', type: 'helper' },
    { id: 'catcher', z: 'tab', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', z: 'tab', type: 'helper' },
  ];
  const clockOf = (msg: Msg | undefined): ShowClockSnapshot => msg?.payload as ShowClockSnapshot;
  /** The simulator's own playhead of main: the truth the clock must show. */
  const truth = (): number => sim.state.transports.positionOf(MAIN).time;
  /** Each clock msg with the simulator's playhead read the moment it arrived. */
  const clockMessages = (): { msg: Msg; truth: number }[] => {
    const seen: { msg: Msg; truth: number }[] = [];
    helper.getNode('clock')?.on('input', (msg: Msg) => seen.push({ msg, truth: truth() }));
    return seen;
  };
  const eventsOf = (messages: Msg[], kind?: string) => messages.filter((msg) => kind === undefined || msg.event === kind).map((msg) => [msg.event, (msg.payload as { value: unknown }).value]);
  const transportSubscriptions = (name: string) =>
    sim.live.stats().subscribed.filter((entry) => entry.object.toLowerCase().startsWith(TRANSPORT_OBJECTS) && entry.object.toLowerCase().includes(name));

  it("sends main's clock with the transport as topic, moving with the simulator's playhead, at most `rate` times a second", async () => {
    await helper.load(nodes, flow({ rate: 2 }));
    const seen = statuses('n1');
    const sent = collect('clock');
    // The first may come before the track's length and annotations are read (core then says length 0, no section),
    // and before the timecode status, the last of the clock's properties to be subscribed.
    await eventually(() => expect(clockOf(sent.at(-1))).toMatchObject({ track: { length: 300 }, timecode: { status: expect.any(String) as unknown } }));
    const first = sent.at(-1);
    expect(first?.topic).toBe('main');
    expect(clockOf(first)).toMatchObject({ transport: { name: 'main' }, status: 'online', playing: false, track: { name: 'Preshow', length: 300 }, section: { index: 0, time: 0 } });
    await eventually(() => expect(seen.at(-1)).toEqual({ fill: 'green', shape: 'ring', text: '■ −2:00 · section 0' }));

    // A stopped transport's clock does not change: nothing more is sent.
    const still = collect('clock');
    await sleep(1000);
    expect(still).toEqual([]);

    await client.transport.play(MAIN);
    await eventually(() => expect(clockOf(still.at(-1)).playing).toBe(true));
    const window = clockMessages();
    await sleep(2500);
    // Counted over the window rather than gap by gap: a loaded machine can hand two over close together.
    expect(window.length).toBeGreaterThanOrEqual(3);
    expect(window.length).toBeLessThanOrEqual(2 * 2.5 + 1);
    for (const { msg, truth: playhead } of window) {
      expect(msg.topic).toBe('main');
      expect(Math.abs(clockOf(msg).time - playhead)).toBeLessThan(0.5);
    }
    const times = window.map(({ msg }) => clockOf(msg).time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    await eventually(() => expect(seen.at(-1)?.text).toMatch(/^▶ −1:5\d · section 0$/));
  });

  it('tells each warning threshold, the next section and the cue passed at its start, as the playhead plays through them', async () => {
    await helper.load(nodes, flow({ thresholds: '2,1' }));
    const events = collect('events');
    const seen = statuses('n1');
    await nextMessage('clock');
    await client.transport.gotoTime({ transport: MAIN, time: 117.4, playmode: 'play' });
    await eventually(() => expect(eventsOf(events, 'cue')).toHaveLength(1), 10_000);
    expect(eventsOf(events)).toEqual([
      ['status', 'online'],
      ['remaining', 2],
      ['remaining', 1],
      ['section', 1],
      ['cue', { kind: 'CUE', value: 'Q1', time: 120 }],
    ]);
    expect(events.every((msg) => msg.topic === 'main')).toBe(true);
    expect(events.find((msg) => msg.event === 'section')?.payload).toMatchObject({ value: 1, previous: 0, transport: 'main', track: 'Preshow', nextSection: { index: 2, time: 240 } });
    expect(events.find((msg) => msg.event === 'remaining' && (msg.payload as { value: number }).value === 1)?.payload).toMatchObject({ section: 0, remaining: expect.any(Number) as number });
    expect((events.find((msg) => msg.event === 'cue')?.payload as { next?: unknown }).next).toEqual({ kind: 'note', value: 'Five minute call', time: 240 });
    expect(seen.map((status) => status.text)).toContain('▶ −0:01 · section 0');
  });

  it('changes section on a goto without calling the cues it jumped over passed', async () => {
    await helper.load(nodes, flow());
    const events = collect('events');
    const clock = collect('clock');
    // The starting point is the first reading with the track's sections: only a change after it is an event.
    await eventually(() => expect(clockOf(clock.at(-1)).section?.index).toBe(0));
    await client.transport.gotoTime({ transport: MAIN, time: 125 });
    await eventually(() => expect(eventsOf(events, 'section')).toEqual([['section', 1]]));
    await sleep(500);
    expect(eventsOf(events, 'cue')).toEqual([]);
    expect(eventsOf(events, 'remaining')).toEqual([]);
  });

  it('shows a playhead that stands still while playing as stale, holding its time, and live again when it moves', async () => {
    await helper.load(nodes, flow());
    const events = collect('events');
    const clock = collect('clock');
    const seen = statuses('n1');
    await nextMessage('clock');
    await client.transport.play(MAIN);
    await eventually(() => expect(clockOf(clock.at(-1)).playing).toBe(true));

    await control(sim, { action: 'silentLive', pattern: TRANSPORT_OBJECTS, on: true });
    try {
      await eventually(() => expect(eventsOf(events, 'status').at(-1)).toEqual(['status', 'stale']), STALE_WITHIN_MS);
      expect(events.filter((msg) => msg.event === 'status').at(-1)?.payload).toEqual({ value: 'stale', previous: 'online', transport: 'main' });
      await eventually(() => expect(seen.at(-1)).toEqual({ fill: 'yellow', shape: 'ring', text: 'stale: no values' }));
      await eventually(() => expect(clockOf(clock.at(-1)).status).toBe('stale'));
      // Held where it was last seen: nothing moves, nothing more is sent.
      const held = clock.length;
      await sleep(1000);
      expect(clock).toHaveLength(held);
      expect(clockOf(clock.at(-1)).time).toBeLessThan(truth() - 1);
    } finally {
      await control(sim, { action: 'silentLive', pattern: TRANSPORT_OBJECTS, on: false });
    }
    await eventually(() => expect(eventsOf(events, 'status').at(-1)).toEqual(['status', 'online']), STALE_WITHIN_MS);
    await eventually(() => expect(clockOf(clock.at(-1))).toMatchObject({ status: 'online', playing: true }));
    expect(Math.abs(clockOf(clock.at(-1)).time - truth())).toBeLessThan(1);
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'green', shape: 'ring', text: expect.stringMatching(/^▶ −\d+:\d\d · section \d$/) as unknown }));
    // The link stayed up: nothing said offline.
    expect(eventsOf(events, 'status').map(([, value]) => value)).not.toContain('offline');
  }, 3 * STALE_WITHIN_MS);

  it('shows a dropped stream as offline at once, its last clock marked offline and held, and online again when it is back', async () => {
    await helper.load(nodes, flow());
    const events = collect('events');
    const clock = collect('clock');
    const seen = statuses('n1');
    await nextMessage('clock');
    await client.transport.play(MAIN);
    await eventually(() => expect(clockOf(clock.at(-1)).playing).toBe(true));

    await control(sim, { action: 'refuseUpgrades', on: true });
    try {
      await control(sim, { action: 'dropSockets' });
      await eventually(() => expect(eventsOf(events, 'status').at(-1)).toEqual(['status', 'offline']));
      await eventually(() => expect(seen.at(-1)).toEqual({ fill: 'red', shape: 'ring', text: 'offline' }));
      await eventually(() => expect(clockOf(clock.at(-1)).status).toBe('offline'));
      const held = clock.length;
      await sleep(800);
      expect(clock).toHaveLength(held);
    } finally {
      await control(sim, { action: 'refuseUpgrades', on: false });
    }
    await eventually(() => expect(eventsOf(events, 'status').at(-1)).toEqual(['status', 'online']), 20_000);
    await eventually(() => expect(clockOf(clock.at(-1))).toMatchObject({ status: 'online', playing: true }));
    expect(events.filter((msg) => msg.event === 'status').map((msg) => msg.payload)).toEqual([
      { value: 'online', previous: null, transport: 'main' },
      { value: 'offline', previous: 'online', transport: 'main' },
      { value: 'online', previous: 'offline', transport: 'main' },
    ]);
  }, 40_000);

  it('keeps to the transport set in the node whatever msg.transport says, and sends its clock at once on any msg', async () => {
    await helper.load(nodes, flow());
    await nextMessage('clock');
    const answer = nextMessage('clock');
    helper.getNode('n1')?.receive({ transport: 'lobby', tag: 'page opened' });
    const msg = await answer;
    expect(msg).toMatchObject({ topic: 'main', tag: 'page opened', payload: { transport: { name: 'main' } } });
    await sleep(300);
    expect(transportSubscriptions('lobby')).toEqual([]);
  });

  it('watches the transport msg.transport names when the node has none, and moves to another on the next msg', async () => {
    await helper.load(nodes, flow({ transport: '' }));
    const seen = statuses('n1');
    await eventually(() => expect(seen.at(-1)).toEqual({ fill: 'grey', shape: 'ring', text: 'needs msg.transport' }));
    const clock = collect('clock');
    helper.getNode('n1')?.receive({ transport: 'lobby' });
    await eventually(() => expect(clock.at(-1)).toMatchObject({ topic: 'lobby', payload: { track: { name: 'Lobby ambience' } } }));
    helper.getNode('n1')?.receive({ transport: 'side screens' });
    await eventually(() => expect(clock.at(-1)).toMatchObject({ topic: 'side screens', payload: { transport: { name: 'side screens' } } }));
    // The lobby's clock is released at the director.
    await eventually(() => expect(transportSubscriptions('lobby')).toEqual([]));
    expect(transportSubscriptions('side')).not.toEqual([]);
  });

  it('reports a transport that does not exist to Catch once, not on every retry, and shows red', async () => {
    await helper.load(nodes, flow({ transport: 'nowhere' }));
    const seen = statuses('n1');
    const caught = await nextMessage('caught');
    expect(caught.error?.message).toMatch(/no transport "nowhere"/);
    expect(caught.topic).toBe('nowhere');
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'red', shape: 'dot' }));
    // Core looks for it again every 5 s.
    const more = collect('caught');
    await sleep(6000);
    expect(more).toEqual([]);
  });

  it('says offline, on its status and its events, when the server cannot be reached to find the transport', async () => {
    const unreachable = flow().map((node) => (node.id === 'server' ? { ...node, host: 'http://127.0.0.1:9', followDirector: false } : node));
    await helper.load(nodes, unreachable);
    const seen = statuses('n1');
    const events = collect('events');
    const caught = await nextMessage('caught');
    expect(caught.error?.message).toMatch(/127\.0\.0\.1:9/);
    // The clock's own word or its server's, whichever came last: both say the clock is not live.
    await eventually(() => expect(seen.at(-1)).toEqual({ fill: 'red', shape: 'ring', text: expect.stringMatching(/^(offline|unreachable)$/) as unknown }));
    await eventually(() => expect(events.map((msg) => msg.payload)).toEqual([{ value: 'offline', previous: null, transport: 'main' }]));
  });

  it('reports settings it cannot work with to Catch at deploy', async () => {
    await helper.load(nodes, flow({ thresholds: 'soon' }));
    const caught = await nextMessage('caught');
    expect(caught.error?.message).toMatch(/Warn at must be seconds/);
    expect(transportSubscriptions('main')).toEqual([]);
  });

  it('releases its clock at the director when a deploy removes it, leaving the shared socket to the others', async () => {
    const fps = { id: 'fps', z: 'tab', type: 'stagelink-liveupdate-in', server: 'server', preset: 'localFps', interval: 100, average: 0, topic: '', wires: [[], []] };
    await helper.load(nodes, [...flow(), fps]);
    await nextMessage('clock');
    await eventually(() => expect(transportSubscriptions('main')).not.toEqual([]));
    await helper.setFlows([...flow().filter((node) => !['n1', 'clock', 'events'].includes(node.id)), fps], 'nodes');
    await eventually(() => expect(transportSubscriptions('main')).toEqual([]));
    expect(sim.live.stats().sockets).toBe(1);
  });

  it("counts main's section down on the show-monitor dashboard, turns it orange near the end, and shows STALE and OFFLINE there", async () => {
    const flow = dashboardExample(sim);
    await helper.load([...allNodes(), ...coreNodes], flow);
    const shown = collect(countdownId());
    const last = () => ({ text: shown.at(-1)?.payload, colour: shown.at(-1)?.['class'] });
    await eventually(() => expect(last()).toEqual({ text: '2:00 left in section 0', colour: 'stagelink-clock-online' }));

    await client.transport.gotoTime({ transport: MAIN, time: 112, playmode: 'play' });
    await eventually(() => expect(last()).toEqual({ text: expect.stringMatching(/^0:0[0-8] left in section 0$/) as unknown, colour: 'stagelink-clock-warning' }));

    await control(sim, { action: 'silentLive', pattern: TRANSPORT_OBJECTS, on: true });
    try {
      await eventually(() => expect(last()).toEqual({ text: expect.stringMatching(/^STALE \(\d+:\d\d left in section \d\)$/) as unknown, colour: 'stagelink-live-stale' }), STALE_WITHIN_MS);
    } finally {
      await control(sim, { action: 'silentLive', pattern: TRANSPORT_OBJECTS, on: false });
    }
    await eventually(() => expect(last().colour).toMatch(/^stagelink-clock-(online|warning)$/), STALE_WITHIN_MS);

    await control(sim, { action: 'refuseUpgrades', on: true });
    try {
      await control(sim, { action: 'dropSockets' });
      await eventually(() => expect(last()).toEqual({ text: 'OFFLINE', colour: 'stagelink-live-offline' }));
    } finally {
      await control(sim, { action: 'refuseUpgrades', on: false });
    }
    await eventually(() => expect(last()).toMatchObject({ text: expect.stringMatching(/left in section/) as unknown }), 20_000);
  }, 3 * STALE_WITHIN_MS);

  it('shows OFFLINE on the dashboard when the server cannot be reached from the start', async () => {
    const flow = dashboardExample(sim).map((node) => (node.type === 'stagelink-server' ? { ...node, host: 'http://127.0.0.1:9', followDirector: false } : node));
    await helper.load([...allNodes(), ...coreNodes], flow);
    const shown = collect(countdownId());
    await eventually(() => expect(shown.at(-1)).toMatchObject({ payload: 'OFFLINE', class: 'stagelink-live-offline' }));
  });
});
