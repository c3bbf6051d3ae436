import type { Simulator } from '@stagelink/simulator';
import { beforeEach, describe, expect, it } from 'vitest';
import { control, eventually, flowWith, helper, hostnames, nextMessage, nodeModules, smcAccount, statuses, useSimulator } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-oled-out');

describe('stagelink-oled-out', () => {
  let sim: Simulator;
  useSimulator((started) => (sim = started));

  const base = { type: 'stagelink-oled-out', title: 'Stage', titleType: 'str', message: 'payload', messageType: 'msg', priority: '1', priorityType: 'num' };
  /** The node, naming the simulator's machine by its hostname in the session. */
  let oled: typeof base & { machine: string; machineType: string };
  beforeEach(() => {
    oled = { ...base, machine: hostnames(sim).director, machineType: 'str' };
  });

  it('says "login required" through Catch while the machine is logged out, and shows nothing', async () => {
    await helper.load(nodes, flowWith(sim, oled));
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ payload: 'Doors open' });
    expect((await caught).error?.message).toMatch(/login required/);
    expect(sim.state.hardware.oled.history()).toEqual([]);
  });

  it('shows title, message from msg.payload and priority, with msg.title where the node leaves the title blank', async () => {
    await control(sim, { action: 'login', loggedIn: true });
    await helper.load(nodes, flowWith(sim, { ...oled, title: '' }), smcAccount(sim));
    const seen = statuses('n1');
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ payload: 'Doors open', title: 'Front of house' });
    const msg = await out;
    expect(msg.payload).toEqual({ priority: 1, title: 'Front of house', message: 'Doors open', truncated: false });
    expect(msg.truncated).toBe(false);
    expect(sim.state.hardware.oled.history().at(-1)).toMatchObject({ title: 'Front of house', message: 'Doors open', priority: 1 });
    expect(seen.at(-1)).toMatchObject({ fill: 'green' });
  });

  it('says in its status when the message was cut to 200 characters', async () => {
    await control(sim, { action: 'login', loggedIn: true });
    await helper.load(nodes, flowWith(sim, oled), smcAccount(sim));
    const seen = statuses('n1');
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ payload: 'x'.repeat(250) });
    const msg = await out;
    expect(msg.truncated).toBe(true);
    expect((msg.payload as { message: string }).message).toHaveLength(200);
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'yellow', text: `${hostnames(sim).director}: cut to 200` }));
  });

  it('sets the display time before showing the message', async () => {
    await control(sim, { action: 'login', loggedIn: true });
    await helper.load(nodes, flowWith(sim, { ...oled, displayTime: '25', displayTimeType: 'num' }), smcAccount(sim));
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ payload: 'Places please', displayTime: 4 });
    await out;
    expect(sim.state.hardware.oled.displaySeconds).toBe(25);
    expect(sim.state.hardware.oled.history().at(-1)).toMatchObject({ message: 'Places please', displaySeconds: 25 });
  });

  it('refuses a message that is not text and an empty one', async () => {
    await control(sim, { action: 'login', loggedIn: true });
    await helper.load(nodes, flowWith(sim, oled), smcAccount(sim));
    let caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ payload: { not: 'text' } });
    expect((await caught).error?.message).toMatch(/message must be text/);
    caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ payload: '' });
    expect((await caught).error?.message).toMatch(/No message given/);
  });

  it('refuses to send without a machine, to Catch and with a red status, and nothing reaches a machine', async () => {
    await control(sim, { action: 'login', loggedIn: true });
    await helper.load(nodes, flowWith(sim, base), smcAccount(sim));
    const seen = statuses('n1');
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ payload: 'Doors open' });
    const error = (await caught).error?.message ?? '';
    expect(error).toMatch(/^HardwareTargetError: The OLED notification was not sent: no machine named/);
    expect(error).toMatch(/msg\.machine/);
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'red' }));
    expect(sim.arrivals.count('POST', '/api/oled/notification')).toBe(0);
    expect(sim.state.hardware.oled.history()).toEqual([]);
  });

  it('takes msg.machine when the node leaves Machine blank, and says which machine in its status', async () => {
    await control(sim, { action: 'login', loggedIn: true });
    await helper.load(nodes, flowWith(sim, base), smcAccount(sim));
    const seen = statuses('n1');
    const out = nextMessage('out');
    const { director } = hostnames(sim);
    helper.getNode('n1')?.receive({ payload: 'Doors open', machine: director });
    const msg = await out;
    expect(msg.machine).toBe(director);
    expect(sim.state.hardware.oled.history().at(-1)).toMatchObject({ title: 'Stage', message: 'Doors open' });
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'green', text: `${director} shows Stage` }));
  });
});
