import { isPlaying, type MediaServer } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { allNodes, collect, control, eventually, helper, hostnames, simState, smcAccount, smcsOf, useSimulatorAndClient } from './support/harness.js';

/** The core nodes the examples use besides stagelink's (the helper itself brings only catch, status and complete). */
const fromNodeRed = createRequire(createRequire(import.meta.url).resolve('node-red'));
const coreNodes = ['common/20-inject.js', 'common/90-comment.js', 'function/10-switch.js', 'function/15-change.js', 'function/10-function.js'].map(
  (file) => fromNodeRed(`@node-red/nodes/core/${file}`) as unknown,
);

type FlowNode = Record<string, unknown> & { id: string; type: string; name?: string };

/**
 * An example as a user imports it, pointed at the simulator: its debug nodes become helpers with the same ids, so
 * the test sees what the user would see in the sidebar.
 */
function example(file: string, sim: Simulator): FlowNode[] {
  const flow = JSON.parse(readFileSync(new URL(`../examples/${file}`, import.meta.url), 'utf8')) as FlowNode[];
  return flow.map((node) => {
    // The director's front screen, by its hostname in this simulator's session, and on r34 its management controller.
    if (node.type === 'tab' && Array.isArray(node['env'])) return { ...node, env: (node['env'] as { name: string }[]).map((variable) => (variable.name === 'DIRECTOR' ? { ...variable, value: hostnames(sim).director } : variable)) };
    if (node.type === 'stagelink-server') return { ...node, host: sim.mediaServer.url, ...smcsOf(sim) };
    if (node.type === 'debug') return { id: node.id, z: node['z'], type: 'helper', name: node.name };
    return node;
  });
}

/** The id of the example's node called `name`. */
function named(flow: FlowNode[], name: string): string {
  const found = flow.find((node) => node.name === name);
  if (!found) throw new Error(`The example has no node named "${name}".`);
  return found.id;
}

/** The SMC account for the example's own server node, where the dialect needs one for the front screen. */
function accountFor(flow: FlowNode[], sim: Simulator): Record<string, Record<string, string>> {
  const server = flow.find((node) => node.type === 'stagelink-server');
  const account = smcAccount(sim)['server'];
  return server && account ? { [server.id]: account } : {};
}


describe('the examples', () => {
  let sim: Simulator;
  let client: MediaServer;
  useSimulatorAndClient((started, startedClient) => {
    sim = started;
    client = startedClient;
  });

  const main = async () => (await simState(sim)).transports.find((transport) => transport.name === 'main');

  it('cue list: a GO carrying an earlier cue\'s msg.track and msg.command still lands its own track, then plays', async () => {
    const flow = example('cue-list.json', sim);
    await helper.load([...allNodes(), ...coreNodes], flow);
    const landed = collect(named(flow, 'cue landed'));
    const failures = collect(named(flow, 'failures'));

    helper.getNode(named(flow, 'GO Act 1'))?.receive({});
    await eventually(() => expect(landed).toHaveLength(1));
    expect(await main()).toMatchObject({ currentTrack: 'Act 1' });
    expect(isPlaying(await main())).toBe(true);

    helper.getNode(named(flow, 'GO Finale'))?.receive({});
    await eventually(() => expect(landed).toHaveLength(2));
    expect(await main()).toMatchObject({ currentTrack: 'Finale' });
    expect(isPlaying(await main())).toBe(true);
    expect(failures).toEqual([]);
  });

  it('two-step failover: fire alone does nothing; arm then fire fails over once', async () => {
    const flow = example('two-step-failover.json', sim);
    await helper.load([...allNodes(), ...coreNodes], flow);
    const failedOver = collect(named(flow, 'failed over'));
    const failures = collect(named(flow, 'failures'));
    const { actor1, understudy } = hostnames(sim);

    helper.getNode(named(flow, 'fire'))?.receive({});
    await sleep(1000);
    expect((await simState(sim)).failedOver).toEqual([]);
    expect(failedOver).toEqual([]);

    helper.getNode(named(flow, 'arm failover'))?.receive({});
    await sleep(100);
    helper.getNode(named(flow, 'fire'))?.receive({});
    await eventually(() => expect(failedOver).toHaveLength(1));
    expect((await simState(sim)).failedOver).toEqual([{ actor: actor1, understudy }]);

    // The arming was used up: a second fire is not confirmed.
    await client.failover.restoreMachine({ name: 'Actor 1' });
    helper.getNode(named(flow, 'fire'))?.receive({});
    await sleep(1000);
    expect((await simState(sim)).failedOver).toEqual([]);
    expect(failedOver).toHaveLength(1);
    expect(failures).toEqual([]);
  });

  it('health alert: a machine that stops being ok goes to the front screen and the alert debug, and back to ok on restore', async () => {
    await control(sim, { action: 'login', loggedIn: true });
    const flow = example('health-alert.json', sim);
    await helper.load([...allNodes(), ...coreNodes], flow, accountFor(flow, sim));
    const alerts = collect(named(flow, 'health alert'));
    const recovered = collect(named(flow, 'back to ok'));
    const failures = collect(named(flow, 'failures'));
    const { actor1 } = hostnames(sim);
    // The first reading is only noted: wait for it before changing anything.
    await sleep(1500);

    await client.failover.failoverMachine({ name: 'Actor 1' });
    await eventually(() => expect(alerts).toHaveLength(1));
    expect(alerts[0]?.payload).toBe(`${actor1} is offline (was ok)`);
    await eventually(() => expect(sim.state.hardware.oled.history().at(-1)).toMatchObject({ title: 'Health', message: `${actor1} is offline (was ok)`, priority: 2 }));
    expect(recovered).toEqual([]);

    await client.failover.restoreMachine({ name: 'Actor 1' });
    await eventually(() => expect(recovered).toHaveLength(1));
    expect(recovered[0]?.payload).toMatchObject({ value: 'ok', previous: 'offline', machine: actor1 });
    expect(alerts).toHaveLength(1);
    expect(failures).toEqual([]);
  });
});
