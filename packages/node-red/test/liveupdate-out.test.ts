import { MediaServer } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { describe, expect, it } from 'vitest';
import { collect, control, eventually, flowWith, helper, nextMessage, nodeModules, statuses, useSimulator } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-liveupdate-out', 'stagelink-liveupdate-in');

describe('stagelink-liveupdate-out', () => {
  let sim: Simulator;
  useSimulator((started) => (sim = started));

  const main = async () => {
    const ms = new MediaServer({ host: sim.mediaServer.url });
    try {
      return (await ms.transport.transports()).transports.find((transport) => transport.name === 'main');
    } finally {
      await ms.close();
    }
  };
  /** The node's subscription is on the server: a write can go by its id. */
  const ready = async () => eventually(() => expect(sim.live.stats().subscriptions).toBeGreaterThan(0));

  it('writes msg.payload to a transport\'s brightness through the stream; it reads back as a 32-bit float', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-liveupdate-out', preset: 'transportBrightness', transport: 'main' }));
    await ready();
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ payload: 0.95 });
    expect((await out).payload).toBe(0.95);
    await eventually(async () => expect(Math.abs(((await main())?.brightness ?? 0) - 0.95)).toBeLessThan(1e-6));
  });

  it('shows the value a live update node watching the same brightness sees, on one server subscription', async () => {
    await helper.load(nodes, [
      ...flowWith(sim, { type: 'stagelink-liveupdate-out', preset: 'transportBrightness', transport: 'main' }),
      { id: 'watch', z: 'tab', type: 'stagelink-liveupdate-in', server: 'server', preset: 'transportBrightness', transport: 'main', interval: 100, wires: [['seen']] },
      { id: 'seen', z: 'tab', type: 'helper' },
    ]);
    await ready();
    const seen = collect('seen');
    const shown = statuses('n1');
    helper.getNode('n1')?.receive({ payload: 0.95 });
    await eventually(() => expect(seen.some((msg) => Math.abs(Number(msg.payload) - 0.95) < 1e-6)).toBe(true));
    // The out node subscribes at deploy and the in node a moment later: once both have, they share one.
    await eventually(() => expect(sim.live.stats().subscriptions).toBe(1));
    await eventually(() => expect(shown.at(-1)).toMatchObject({ fill: 'green', text: 'wrote 0.950' }));
  });

  it('keeps showing the last value written after the stream comes back', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-liveupdate-out', preset: 'transportVolume', transport: 'main' }));
    await ready();
    const shown = statuses('n1');
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ payload: 0.5 });
    await out;
    await control(sim, { action: 'refuseUpgrades', on: true });
    await control(sim, { action: 'dropSockets' });
    await eventually(() => expect(shown.at(-1)?.text).toMatch(/offline/));
    await control(sim, { action: 'refuseUpgrades', on: false });
    await eventually(() => expect(shown.at(-1)).toMatchObject({ fill: 'green', text: 'wrote 0.500' }));
  });

  it('brings a property the server refuses to Catch in the server\'s words, and writes nothing', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-liveupdate-out', preset: 'custom', object: 'transportManager:"nowhere"', properties: 'object.volume' }));
    const shown = statuses('n1');
    await eventually(() => expect(shown.at(-1)).toMatchObject({ fill: 'red' }));
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ payload: 0.5 });
    expect((await caught).error?.message).toMatch(/cannot be written: .*nowhere/);
  });

  it('brings a setup that cannot work to Catch at deploy, once, before any write', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-liveupdate-out', preset: 'custom', object: 'transportManager:"nowhere"', properties: 'object.volume' }));
    const caught = collect('caught');
    await eventually(() => expect(caught.map((msg) => msg.error?.message)).toEqual([expect.stringMatching(/nowhere/)]));
    expect(caught[0]).toMatchObject({ topic: 'setup', error: { source: { id: 'n1' } } });
    // The server says so on every interval: Catch hears of it once.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(caught).toHaveLength(1);
  });

  it('brings a setting that makes no request to Catch at deploy, with its code', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-liveupdate-out', preset: 'custom', object: '', properties: 'object.volume' }));
    const caught = nextMessage('caught');
    expect((await caught).error).toMatchObject({ message: expect.stringMatching(/needs an object expression/) as unknown, code: 'STAGELINK_ERR_INVALID_INPUT' });
  });

  it('writes any property given as expressions', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-liveupdate-out', preset: 'custom', object: 'transportmanager:main', properties: 'object.volume' }));
    await ready();
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ payload: 0.25 });
    await out;
    await eventually(async () => expect((await main())?.volume).toBe(0.25));
  });

  it('fails at once, to Catch, while the stream is down: a write never lands late', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-liveupdate-out', preset: 'transportBrightness', transport: 'main' }));
    await ready();
    const seen = statuses('n1');
    await control(sim, { action: 'refuseUpgrades', on: true });
    await control(sim, { action: 'dropSockets' });
    await eventually(() => expect(seen.at(-1)?.text).toMatch(/offline/));
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ payload: 0.1 });
    expect((await caught).error?.message).toMatch(/not written: the live-update stream is not connected/);
    await control(sim, { action: 'refuseUpgrades', on: false });
    expect((await main())?.brightness).not.toBe(Math.fround(0.1));
  });

  it('shares the server\'s one socket and releases its subscription when a deploy changes or removes it', async () => {
    const flow = (out: Record<string, unknown>[]) => [
      ...flowWith(sim, { type: 'stagelink-liveupdate-in', preset: 'localFps', interval: 100 }),
      ...out.map((node) => ({ id: 'writer', z: 'tab', type: 'stagelink-liveupdate-out', server: 'server', transport: 'main', wires: [['writer-out']], ...node })),
      { id: 'writer-out', z: 'tab', type: 'helper' },
    ];
    await helper.load(nodes, flow([{ preset: 'transportBrightness' }]));
    await eventually(() => expect(sim.live.stats()).toMatchObject({ sockets: 1, subscriptions: 2 }));
    const upgrades = sim.live.stats().upgradeAttempts;
    await helper.setFlows(flow([{ preset: 'transportVolume' }]), 'nodes');
    // At once: the restarted node subscribes on its first msg, and core sends the write when the id comes.
    const out = nextMessage('writer-out');
    helper.getNode('writer')?.receive({ payload: 0.4 });
    await out;
    await eventually(async () => expect(Math.abs(((await main())?.volume ?? 0) - 0.4)).toBeLessThan(1e-6));
    expect(sim.live.stats()).toMatchObject({ sockets: 1, subscriptions: 2, upgradeAttempts: upgrades });
    await helper.setFlows(flow([]), 'nodes');
    await eventually(() => expect(sim.live.stats()).toMatchObject({ sockets: 1, subscriptions: 1 }));
  });

  it('refuses a msg without a value', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-liveupdate-out', preset: 'transportVolume', transport: 'main' }));
    await ready();
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({});
    expect((await caught).error?.message).toMatch(/no value to write/);
  });
});
