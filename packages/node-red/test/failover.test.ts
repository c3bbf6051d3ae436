import type { Simulator } from '@stagelink/simulator';
import { describe, expect, it } from 'vitest';
import { eventually, flowWith, helper, hostnames, nextMessage, nodeModules, simState, statuses, useSimulator } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-failover');

describe('stagelink-failover', () => {
  let sim: Simulator;
  useSimulator((started) => (sim = started));

  const failover = { type: 'stagelink-failover', operation: 'failovermachine', machine: 'Actor 1', machineType: 'str', machineBy: 'name' };

  it('sends nothing without msg.confirm === true and tells Catch why', async () => {
    await helper.load(nodes, flowWith(sim, failover));
    for (const confirm of [undefined, 'true', 1, false]) {
      const caught = nextMessage('caught');
      helper.getNode('n1')?.receive({ confirm });
      expect((await caught).error?.message).toMatch(/failovermachine was not sent: set msg.confirm to true/);
    }
    expect((await simState(sim)).failedOver).toEqual([]);
  });

  it('fails over with msg.confirm === true, then restores and applies the default routing', async () => {
    const { actor1, understudy } = hostnames(sim);
    await helper.load(nodes, flowWith(sim, { ...failover, operation: '' }));
    let out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'failovermachine', confirm: true });
    expect((await out).payload).toEqual({ operation: 'failovermachine', machine: { name: 'Actor 1' } });
    const failedOver = await simState(sim);
    expect(failedOver.failedOver).toEqual([{ actor: actor1, understudy }]);

    out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'restoremachine', confirm: true });
    await out;
    expect((await simState(sim)).failedOver).toEqual([]);

    out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'applydefaultrouting' });
    expect((await out).payload).toEqual({ operation: 'applydefaultrouting' });
    expect((await simState(sim)).routingPreset).toBe('Default routing');
  });

  it('reads msg.operation by the client method name too', async () => {
    const { actor1, understudy } = hostnames(sim);
    await helper.load(nodes, flowWith(sim, { ...failover, operation: '' }));
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'failoverMachine', confirm: true });
    expect((await out).payload).toEqual({ operation: 'failovermachine', machine: { name: 'Actor 1' } });
    expect((await simState(sim)).failedOver).toEqual([{ actor: actor1, understudy }]);
  });

  it('consumes msg.confirm: a confirmed msg arms one failover, not the next node in the flow', async () => {
    const { actor1, understudy } = hostnames(sim);
    const flow = flowWith(sim, failover);
    const first = flow.find((node) => node['id'] === 'n1');
    if (!first) throw new Error('flowWith lost the node under test');
    first['wires'] = [['n2']];
    flow.push({ ...failover, id: 'n2', z: first['z'], server: 'server', machine: 'Actor 2', wires: [['out']] });
    await helper.load(nodes, flow);
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ confirm: true });
    const refused = await caught;
    expect(refused.error?.source?.id).toBe('n2');
    expect(refused.error?.message).toMatch(/failovermachine was not sent: set msg.confirm to true/);
    expect((await simState(sim)).failedOver).toEqual([{ actor: actor1, understudy }]);
  });

  it('an armed node fails over without msg.confirm', async () => {
    const { actor2, understudy } = hostnames(sim);
    await helper.load(nodes, flowWith(sim, { ...failover, machine: 'Actor 2', armed: true }));
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({});
    expect((await out).payload).toEqual({ operation: 'failovermachine', machine: { name: 'Actor 2' } });
    expect((await simState(sim)).failedOver).toEqual([{ actor: actor2, understudy }]);
  });

  it('keeps "armed" on the status line after each result, success or failure', async () => {
    await helper.load(nodes, flowWith(sim, { ...failover, machine: '', armed: true }));
    const seen = statuses('n1');
    const node = helper.getNode('n1') as unknown as { status: { getCalls(): { args: [{ fill?: string; text?: string }] }[] } };
    expect(node.status.getCalls()[0]?.args[0]).toMatchObject({ fill: 'yellow', text: 'armed' });
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ machine: 'Actor 1' });
    await out;
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'green', text: 'armed · failed over Actor 1' }));
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ machine: 'Actor 9' });
    await caught;
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'red', text: expect.stringMatching(/^armed · /) as unknown }));
  });

  it('reads the settings and the understudy targets', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-failover', operation: '' }));
    let out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'settings' });
    expect((await out).payload).toEqual({ timeout: 10, normalPreset: 'Default routing', currentPreset: 'Default routing' });
    out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'understudytargets' });
    const { actor1, actor2, understudy } = hostnames(sim);
    expect((await out).payload).toEqual({ [actor1]: understudy, [actor2]: understudy });
  });

  it('reports an unknown machine to Catch', async () => {
    await helper.load(nodes, flowWith(sim, { ...failover, machine: 'Actor 9' }));
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ confirm: true });
    expect((await caught).error?.message).toMatch(/Actor 9/);
  });
});
