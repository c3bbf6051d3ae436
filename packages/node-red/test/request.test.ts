import type { NetworkAdapter, Note } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { describe, expect, it } from 'vitest';
import { control, flowWith, helper, hostnames, nextMessage, nodeModules, simState, smcAccount, statuses, useSimulator } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-request');

describe('stagelink-request', () => {
  let sim: Simulator;
  useSimulator((started) => (sim = started));

  const request = { type: 'stagelink-request', endpoint: 'cameras', body: 'payload', bodyType: 'msg', query: '{}', queryType: 'json', params: '{}', paramsType: 'json' };

  it('calls the chosen endpoint and answers its result in msg.payload', async () => {
    await helper.load(nodes, flowWith(sim, request));
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ payload: 1732000000000 });
    const msg = await out;
    expect(Array.isArray(msg.payload)).toBe(true);
    expect(msg).not.toHaveProperty('endpoint');
  });

  it('calls its own endpoint in a chain: cameras, then health, whatever the msg carries', async () => {
    const flow = flowWith(sim, request);
    const first = flow.find((node) => node['id'] === 'n1');
    if (!first) throw new Error('flowWith lost the node under test');
    first['wires'] = [['n2']];
    flow.push({ ...request, id: 'n2', z: first['z'], server: 'server', endpoint: 'health', wires: [['out']] });
    await helper.load(nodes, flow);
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ endpoint: 'machines', payload: 1 });
    const msg = await out;
    expect((msg.payload as { machine?: unknown }[])[0]).toHaveProperty('machine');
    expect(msg.endpoint).toBe('machines');
  });

  it('takes the endpoint, query and body from the msg when the node leaves them blank', async () => {
    await helper.load(nodes, flowWith(sim, { ...request, endpoint: '' }));
    let out = nextMessage('out');
    helper.getNode('n1')?.receive({ endpoint: 'annotations', query: { name: 'Intro' } });
    expect((await out).payload).toMatchObject({ name: 'Intro', annotations: { sections: [{ index: 0 }, { index: 1 }, { index: 2 }] } });

    out = nextMessage('out');
    helper.getNode('n1')?.receive({ endpoint: 'setNote', payload: { note: { name: 'Welcome' }, text: 'Doors at 19:15.' } });
    await out;
    out = nextMessage('out');
    helper.getNode('n1')?.receive({ endpoint: 'getNote', query: { name: 'Welcome' } });
    expect(((await out).payload as Note).text).toBe('Doors at 19:15.');

    // An endpoint by its client method reads the same.
    out = nextMessage('out');
    helper.getNode('n1')?.receive({ endpoint: 'notes.get', query: { name: 'Welcome' } });
    expect(((await out).payload as Note).text).toBe('Doors at 19:15.');
  });

  it('fills path parameters from the node settings', async () => {
    const machine = { machine: hostnames(sim).director, machineType: 'str' };
    await helper.load(nodes, flowWith(sim, { ...request, ...machine, endpoint: 'networkAdaptersList' }));
    let out = nextMessage('out');
    helper.getNode('n1')?.receive({});
    const [first] = (await out).payload as NetworkAdapter[];
    if (!first) throw new Error('the simulator lists no network adapter');
    await helper.unload();
    await helper.load(nodes, flowWith(sim, { ...request, ...machine, endpoint: 'networkAdapterGet', params: JSON.stringify({ mac: first.mac }) }));
    out = nextMessage('out');
    helper.getNode('n1')?.receive({});
    expect((await out).payload).toEqual(first);
  });

  it('sends a guarded endpoint only with msg.confirm === true', async () => {
    await control(sim, { action: 'login', loggedIn: true });
    await helper.load(nodes, flowWith(sim, { ...request, endpoint: 'powerOff', machine: hostnames(sim).director, machineType: 'str' }), smcAccount(sim));
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ payload: {} });
    expect((await caught).error?.message).toMatch(/was not sent: call it with \{ confirm: true \}/);
    expect((await simState(sim)).chassisPower).not.toBe('off');

    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ confirm: true });
    await out;
    expect((await simState(sim)).chassisPower).toBe('off');
  });

  it('refuses a hardware write that names no machine, to Catch with a red status, and sends nothing', async () => {
    await control(sim, { action: 'login', loggedIn: true });
    await helper.load(nodes, flowWith(sim, { ...request, endpoint: 'ledStripSet' }), smcAccount(sim));
    const seen = statuses('n1');
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ payload: { ledMode: 'static', ledR: 1, ledG: 2, ledB: 3 } });
    expect((await caught).error?.message).toMatch(/^HardwareTargetError: POST \/api\/ledstrip .* was not sent: no machine named/);
    expect(seen.at(-1)).toMatchObject({ fill: 'red' });
    expect(sim.arrivals.count('POST', '/api/ledstrip')).toBe(0);
  });

  it('sends hardware endpoints, reads and writes, to msg.machine when the node leaves Machine blank', async () => {
    await control(sim, { action: 'login', loggedIn: true });
    await helper.load(nodes, flowWith(sim, { ...request, endpoint: '' }), smcAccount(sim));
    let out = nextMessage('out');
    helper.getNode('n1')?.receive({ endpoint: 'whoami', machine: hostnames(sim).director });
    await out;
    expect(sim.arrivals.count('POST', '/api/chassis/whoami')).toBe(1);
    out = nextMessage('out');
    helper.getNode('n1')?.receive({ endpoint: 'smcStatus', machine: hostnames(sim).director });
    expect((await out).payload).toHaveProperty('Database');
  });

  it('fails a machine over only with msg.confirm === true, as the failover node does (hardening)', async () => {
    await helper.load(nodes, flowWith(sim, { ...request, endpoint: 'failoverMachine', body: '{"machine":{"name":"Actor 1"}}', bodyType: 'json' }));
    for (const confirm of [undefined, false, 'true', 1]) {
      const caught = nextMessage('caught');
      helper.getNode('n1')?.receive({ confirm });
      expect((await caught).error?.message).toMatch(/^ConfirmationRequiredError: POST \/api\/session\/failover\/failovermachine .* was not sent/);
    }
    expect((await simState(sim)).failedOver).toEqual([]);

    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ confirm: true });
    // One confirmation arms one command: it does not ride on to the next node.
    expect(await out).not.toHaveProperty('confirm');
    expect((await simState(sim)).failedOver).toHaveLength(1);
  });

  it('sends msg.body when the body is set to "from msg"', async () => {
    await helper.load(nodes, flowWith(sim, { ...request, endpoint: 'failoverMachine', body: '', bodyType: 'frommsg' }));
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ confirm: true, payload: 'not the body', body: { machine: { name: 'Actor 1' } } });
    await out;
    expect((await simState(sim)).failedOver).toHaveLength(1);
  });

  it('reports an endpoint that does not exist and a refused request to Catch', async () => {
    await helper.load(nodes, flowWith(sim, { ...request, endpoint: '' }));
    let caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ endpoint: 'toString' });
    expect((await caught).error?.message).toMatch(/"toString" is not an endpoint/);
    caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ endpoint: 'getNote', query: { name: 'No such note' } });
    expect((await caught).error?.message).toMatch(/No such note/);
  });
});
