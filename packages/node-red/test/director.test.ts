import { isPlaying } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { describe, expect, it } from 'vitest';
import { eventually, helper, nextMessage, nodeModules, useSessionSimulator } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-transport');

describe('stagelink-server in a session of several machines', () => {
  let sim: Simulator;

  useSessionSimulator((started) => (sim = started));

  /**
   * Where each machine of the session is, as a user writes it in the server node: machine names do not resolve
   * from here on a shipping session (`DIRECTOR01`), and the session scenario's machines listen on loopback aliases.
   */
  const hostsLines = (): string => sim.machines().map((machine) => `${machine.hostname}=${new URL(machine.url).host}`).join('\n');

  const flow = (host: string) => [
    { id: 'tab', type: 'tab', label: 'test' },
    { id: 'server', type: 'stagelink-server', host, followDirector: true, hosts: hostsLines() },
    { id: 'n1', z: 'tab', type: 'stagelink-transport', server: 'server', command: '', transport: 'main', transportType: 'str', wires: [['out']] },
    { id: 'out', z: 'tab', type: 'helper' },
  ];

  it('cues the director when configured with an actor, and keeps cueing after the director moves', async () => {
    const actor = sim.machines().find((machine) => machine.role === 'actor');
    if (!actor) throw new Error('the session has an actor');
    await helper.load(nodes, flow(actor.url));

    const first = nextMessage('out');
    helper.getNode('n1')?.receive({ command: 'play' });
    await first;
    expect(isPlaying(sim.state.transports.list().find((t) => t.name === 'main'))).toBe(true);

    const next = sim.machines().find((machine) => machine.role !== 'director' && machine.hostname !== actor.hostname);
    if (!next) throw new Error('the session has a machine to move the director to');
    await fetch(`${sim.mediaServer.url}/__sim/control`, { method: 'POST', body: JSON.stringify({ action: 'moveDirector', to: next.hostname }) });
    const second = nextMessage('out');
    helper.getNode('n1')?.receive({ command: 'stop' });
    await second;
    expect(isPlaying(sim.state.transports.list().find((t) => t.name === 'main'))).toBe(false);
    expect(sim.machines().find((machine) => machine.role === 'director')?.hostname).toBe(next.hostname);
  });

  it('shows the editor which machine directs the session, and warns when the role moves', async () => {
    const roleOf = (role: string) => sim.machines().find((machine) => machine.role === role);
    const actor = roleOf('actor');
    if (!actor) throw new Error('the session has an actor');
    await helper.load(nodes, flow(actor.url));
    const director = async () => (await helper.request().get(`/stagelink/director?server=server&host=${encodeURIComponent(actor.url)}`)).body as Record<string, unknown>;
    expect(await director()).toMatchObject({ hostname: roleOf('director')?.hostname, solo: false, followed: true });

    const server = helper.getNode('server') as unknown as { warn: { getCalls(): { args: unknown[] }[] } };
    const next = sim.machines().find((machine) => machine.role !== 'director' && machine.hostname !== actor.hostname);
    if (!next) throw new Error('the session has a machine to move the director to');
    await fetch(`${sim.mediaServer.url}/__sim/control`, { method: 'POST', body: JSON.stringify({ action: 'moveDirector', to: next.hostname }) });
    await eventually(async () => expect(await director()).toMatchObject({ hostname: next.hostname, followed: true }));
    const warnings = server.warn.getCalls().map((call) => String(call.args[0]));
    expect(warnings).toContainEqual(expect.stringContaining(`director of the session is now ${next.hostname}`));
  });

  it('tells the editor the director of a host typed but not deployed, without following it', async () => {
    const actor = sim.machines().find((machine) => machine.role === 'actor');
    if (!actor) throw new Error('the session has an actor');
    await helper.load(nodes, flow(actor.url));
    const answer = await helper.request().get(`/stagelink/director?server=new-one&host=${encodeURIComponent(actor.url)}`);
    expect(answer.body).toMatchObject({ solo: false, followed: false });
    expect(sim.machines().find((machine) => machine.hostname === (answer.body as { hostname: string }).hostname)?.role).toBe('director');
  });
});
