import type { HardwareSnapshot } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { describe, expect, it } from 'vitest';
import { collect, control, eventually, helper, hostnames, type Msg, nodeModules, smcAccount, smcsOf, statuses, useSimulator } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-hardware');

describe('stagelink-hardware', () => {
  let sim: Simulator;
  useSimulator((started) => {
    sim = started;
  });

  const flow = (settings: Record<string, unknown> = {}) => [
    { id: 'tab', type: 'tab', label: 'test' },
    { id: 'server', type: 'stagelink-server', host: sim.mediaServer.url, followDirector: true, ...smcsOf(sim) },
    { id: 'n1', z: 'tab', type: 'stagelink-hardware', server: 'server', machine: hostnames(sim).director, machineType: 'str', every: 1, wires: [['snapshots'], ['changes']], ...settings },
    { id: 'snapshots', z: 'tab', type: 'helper' },
    { id: 'changes', z: 'tab', type: 'helper' },
    { id: 'catcher', z: 'tab', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', z: 'tab', type: 'helper' },
  ];
  const snapshotOf = (msg: Msg | undefined): HardwareSnapshot | undefined => msg?.payload as HardwareSnapshot | undefined;

  it('outputs the machine hardware snapshots, and a fan that stops as a change with its reason, and back', async () => {
    await helper.load(nodes, flow(), smcAccount(sim));
    const snapshots = collect('snapshots');
    const changes = collect('changes');
    const seen = statuses('n1');
    const director = hostnames(sim).director;
    await eventually(() => expect(snapshotOf(snapshots.at(-1))).toMatchObject({ machine: director, status: 'online', severity: 'ok', power: 'on' }));
    expect(snapshots.at(-1)?.topic).toBe(director);
    expect(snapshotOf(snapshots.at(-1))?.fans.length).toBeGreaterThan(0);
    await eventually(() => expect(changes[0]?.payload).toMatchObject({ machine: director, status: 'online', severity: 'ok', reasons: [], previous: null }));
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'green', shape: 'dot', text: expect.stringMatching(/°C · \d+ RPM$/) as unknown }));

    await control(sim, { action: 'hardwareFault', hostname: director, fault: 'fan', on: true });

    await eventually(() => expect(changes.at(-1)?.payload).toMatchObject({ severity: 'error', reasons: ['Fan 2 has stopped (0 RPM)'], previous: { severity: 'ok' } }));
    expect(snapshotOf(snapshots.at(-1))).toMatchObject({ severity: 'error', reasons: ['Fan 2 has stopped (0 RPM)'] });
    expect(snapshotOf(snapshots.at(-1))?.fans).toContainEqual({ sensor: 'Fan 2', rpm: 0 });
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'red', text: 'Fan 2 has stopped (0 RPM)' }));

    await control(sim, { action: 'hardwareFault', hostname: director, fault: 'fan', on: false });
    await eventually(() => expect(changes.at(-1)?.payload).toMatchObject({ severity: 'ok', reasons: [], previous: { severity: 'error' } }));
    expect(collect('caught')).toEqual([]);
  });

  it('shows an SMC that stops answering as offline on both outputs, never its last reading', async () => {
    await helper.load(nodes, flow(), smcAccount(sim));
    const snapshots = collect('snapshots');
    const changes = collect('changes');
    const seen = statuses('n1');
    const director = hostnames(sim).director;
    await eventually(() => expect(snapshotOf(snapshots.at(-1))?.status).toBe('online'));

    await control(sim, { action: 'smcSilent', hostname: director, on: true });

    await eventually(() => expect(changes.at(-1)?.payload).toMatchObject({ status: 'offline', severity: 'error', previous: { status: 'online' } }));
    expect(snapshotOf(snapshots.at(-1))).toMatchObject({ status: 'offline', fans: [], temperatures: [], outputs: [], power: undefined });
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'red', shape: 'ring' }));
    await control(sim, { action: 'smcSilent', hostname: director, on: false });
    await eventually(() => expect(snapshotOf(snapshots.at(-1))?.status).toBe('online'));
  });

  it('sends the latest snapshot on any msg, and takes msg.machine when the node names none', async () => {
    await helper.load(nodes, flow({ machine: '' }), smcAccount(sim));
    const snapshots = collect('snapshots');
    const seen = statuses('n1');
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'grey', text: 'needs msg.machine' }));
    const director = hostnames(sim).director;
    helper.getNode('n1')?.receive({ machine: director });
    await eventually(() => expect(snapshotOf(snapshots.at(-1))?.status).toBe('online'));
    const before = snapshots.length;
    helper.getNode('n1')?.receive({ machine: director, payload: 'refresh' });
    await eventually(() => expect(snapshots.length).toBe(before + 1));
    expect(snapshots.at(-1)?.topic).toBe(director);
  });

  it('reports a period under a second to Catch at the deploy, and reads nothing', async () => {
    await helper.load(nodes, flow({ every: 0.5 }), smcAccount(sim));
    const caught = collect('caught');
    await eventually(() => expect(caught[0]?.error?.message).toMatch(/at least 1/));
    expect(sim.arrivals.count('GET', '/api/chassis/stats')).toBe(0);
  });
});
