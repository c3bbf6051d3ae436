import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HealthEntry, SessionInfo } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { describe, expect, it } from 'vitest';
import { collect, control, eventually, flowWith, helper, hostnames, nextMessage, nodeModules, statuses, useSimulator } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-status');

describe('stagelink-status', () => {
  let sim: Simulator;
  useSimulator((started) => (sim = started));

  it('reads health with the worst severity of the session, or of one machine', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-status', operation: 'health', machine: '', machineType: 'str', interval: 0 }));
    const seen = statuses('n1');
    let out = nextMessage('out');
    helper.getNode('n1')?.receive({});
    const session = await out;
    expect((session.payload as HealthEntry[]).map((entry) => entry.machine.hostname)).toContain(hostnames(sim).actor2);
    expect(session.severity).toBe('warning');
    expect(session.topic).toBe('health');
    expect(seen.at(-1)).toMatchObject({ fill: 'yellow', text: 'warning' });

    out = nextMessage('out');
    helper.getNode('n1')?.receive({ machine: hostnames(sim).actor1, topic: 'front' });
    const actor = await out;
    // Core's word for healthy, whether the server says ok (the documents) or ready (shipping directors).
    expect(actor.severity).toBe('ok');
    expect(actor.topic).toBe('front');
  });

  it('finds the machine whose health it reads by its hostname in any case', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-status', operation: 'health', machine: hostnames(sim).actor2.toLowerCase(), machineType: 'str', interval: 0 }));
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({});
    const severity = (await out).severity;
    await helper.unload();
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-status', operation: 'health', machine: '', machineType: 'str', interval: 0 }));
    const upper = nextMessage('out');
    helper.getNode('n1')?.receive({ machine: hostnames(sim).actor2.toUpperCase() });
    expect([severity, (await upper).severity]).toEqual(['warning', 'warning']);
  });

  it('reads notifications, project and session when msg.operation asks and the node leaves it blank', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-status', operation: '' }));
    let out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'notifications' });
    expect(JSON.stringify((await out).payload)).toContain('Genlock unstable');
    out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'project' });
    expect((await out).payload).toMatchObject({ version: { major: 31 } });
    out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'session' });
    const session = (await out).payload as SessionInfo;
    expect(session.isRunningSolo).toBe(false);
    expect(session.actors.map((m) => m.hostname)).toEqual([hostnames(sim).actor1, hostnames(sim).actor2]);
  });

  it('polls on its interval without input and stops when closed', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-status', operation: 'session', interval: 1 }));
    const messages = collect('out');
    await eventually(() => expect(messages.length).toBeGreaterThanOrEqual(2), 6000);
    expect(messages[0]?.topic).toBe('session');
    await helper.unload();
    const count = messages.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(messages.length).toBe(count);
  });

  it('reads once at deploy, without waiting for its interval', async () => {
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-status', operation: 'session', interval: 3600 }));
    const messages = collect('out');
    await eventually(() => expect(messages).toHaveLength(1));
    expect(messages[0]).toMatchObject({ topic: 'session', payload: { isRunningSolo: false } });
  });

  it('sends a failed read to Catch from an input, and a failing poll once per outage', async () => {
    await control(sim, { action: 'failNext', status: 500, count: 1000 });
    await helper.load(nodes, flowWith(sim, { type: 'stagelink-status', operation: 'health', interval: 1 }));
    const seen = statuses('n1');
    const caught = collect('caught');
    helper.getNode('n1')?.receive({ payload: 'check' });
    await eventually(() => expect(caught.find((msg) => msg.payload === 'check')?.error?.message).toMatch(/answered 500/));
    // Three polls or more fail while the server is down; Catch hears of the outage once, and the status stays red.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    const polls = () => caught.filter((msg) => msg.payload !== 'check');
    expect(polls()).toHaveLength(1);
    expect(polls()[0]?.error?.message).toMatch(/answered 500/);
    expect(seen.at(-1)).toMatchObject({ fill: 'red' });

    // It recovers: the log says so and the readings flow again; the next outage is reported again, once.
    const node = helper.getNode('n1') as unknown as { log: { getCalls(): { args: unknown[] }[] } };
    await control(sim, { action: 'reset' });
    const reading = nextMessage('out');
    expect((await reading).severity).toBe('warning');
    await eventually(() => expect(node.log.getCalls().map((call) => String(call.args[0]))).toContainEqual(expect.stringMatching(/working again after \d+ s \(\d+ failed attempts?\)/)));
    await control(sim, { action: 'failNext', status: 500, count: 1000 });
    await eventually(() => expect(polls()).toHaveLength(2), 5000);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(polls()).toHaveLength(2);
    await control(sim, { action: 'reset' });
  });

  /** The flow of flowWith with the node's second output, the readings' state, wired to helper `state`. */
  const withState = (node: Record<string, unknown>): Record<string, unknown>[] => [
    ...flowWith(sim, { ...node, wires: [['out'], ['state']] }),
    { id: 'state', z: 'tab', type: 'helper' },
  ];

  it('says on its second output when its readings go stale and when they are current again, once each', async () => {
    await helper.load(nodes, withState({ type: 'stagelink-status', operation: 'health', machine: hostnames(sim).actor1, machineType: 'str', interval: 1 }));
    const states = collect('state');
    const readings = collect('out');
    await eventually(() => expect(states.map((msg) => msg.payload)).toEqual(['online']));
    await eventually(() => expect(readings.length).toBeGreaterThan(0));

    await control(sim, { action: 'failNext', status: 500, count: 1000 });
    await eventually(() => expect(states.map((msg) => msg.payload)).toEqual(['online', 'stale']));
    expect(states[1]).toMatchObject({ topic: 'health', reason: expect.stringMatching(/answered 500/) as unknown });
    // Further failed polls change nothing: no message per poll.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(states).toHaveLength(2);

    const order: string[] = [];
    helper.getNode('state')?.on('input', () => order.push('state'));
    helper.getNode('out')?.on('input', () => order.push('reading'));
    await control(sim, { action: 'reset' });
    await eventually(() => expect(states.map((msg) => msg.payload)).toEqual(['online', 'stale', 'online']));
    await eventually(() => expect(order.slice(0, 2)).toEqual(['state', 'reading']));
  });

  it('says offline on its second output when the server cannot be reached', async () => {
    const flow = withState({ type: 'stagelink-status', operation: 'health', interval: 1 });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    flow[1] = { id: 'server', type: 'stagelink-server', host: `http://127.0.0.1:${port}`, followDirector: false };
    await helper.load(nodes, flow);
    const states = collect('state');
    await eventually(() => expect(states.map((msg) => msg.payload)).toEqual(['offline']));
  });

  it('says nothing on its second output of a msg it cannot read: the readings are still current', async () => {
    await helper.load(nodes, withState({ type: 'stagelink-status', operation: '', machine: '', machineType: 'str', interval: 0 }));
    const states = collect('state');
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ operation: 'health' });
    await out;
    for (const msg of [{ operation: 'uptime' }, { operation: 'health', machine: { hostname: 'actor' } }]) {
      const caught = nextMessage('caught');
      helper.getNode('n1')?.receive(msg);
      expect((await caught).error?.message).toMatch(/uptime|machine hostname must be text/);
    }
    expect(states.map((msg) => [msg.topic, msg.payload])).toEqual([['health', 'online']]);
  });

  it('tells the state of each topic apart: a project read failing does not make health readings stale', async () => {
    await helper.load(nodes, withState({ type: 'stagelink-status', operation: '', machine: '', machineType: 'str', interval: 0 }));
    const states = collect('state');
    const read = async (msg: Record<string, unknown>, to: 'out' | 'caught'): Promise<void> => {
      const answered = nextMessage(to);
      helper.getNode('n1')?.receive(msg);
      await answered;
    };
    await read({ operation: 'health' }, 'out');
    await control(sim, { action: 'stallBody', path: '/api/session/status/project', on: true });
    await read({ operation: 'project', timeout: 2000 }, 'caught');
    // The next health reading is as current as the first: nothing new to say of it.
    await read({ operation: 'health' }, 'out');
    expect(states.map((msg) => [msg.topic, msg.payload])).toEqual([
      ['health', 'online'],
      ['project', 'stale'],
    ]);
    await control(sim, { action: 'stallBody', path: '/api/session/status/project', on: false });
    await read({ operation: 'project' }, 'out');
    expect(states.map((msg) => [msg.topic, msg.payload]).at(-1)).toEqual(['project', 'online']);
  });

  it('reports an answer with fields of the wrong type as such, not as a TypeError (hardening)', async () => {
    // A server that speaks the envelope but fills it with the wrong types.
    const wrong = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":{"code":0,"message":"","details":[]},"result":[null,5],"isRunningSolo":false}');
    });
    await new Promise<void>((resolve) => wrong.listen(0, '127.0.0.1', resolve));
    try {
      const flow = flowWith(sim, { type: 'stagelink-status', operation: 'health', machine: hostnames(sim).actor1, machineType: 'str' });
      flow[1] = { id: 'server', type: 'stagelink-server', host: `http://127.0.0.1:${(wrong.address() as AddressInfo).port}`, followDirector: false };
      flow[2] = { ...flow[2], operation: '' };
      await helper.load(nodes, flow);
      for (const operation of ['health', 'notifications', 'project']) {
        const caught = nextMessage('caught');
        helper.getNode('n1')?.receive({ operation });
        const message = (await caught).error?.message ?? '';
        expect(message).toMatch(/^UnexpectedAnswerError: .* not in the shape the API specifies/);
        expect(message).not.toMatch(/TypeError/);
      }
    } finally {
      wrong.closeAllConnections();
      await new Promise((resolve) => wrong.close(resolve));
    }
  });
});
