import { endpoints, isPlaying } from '@stagelink/core';
import { simControl, startSimulator, type Simulator } from '@stagelink/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, eventually, helper, nextMessage, nodeModules, useSessionSimulator } from './support/harness.js';

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

describe('stagelink-server through a takeover away from the director it was given', () => {
  let sim: Simulator | undefined;

  afterEach(async () => {
    await helper.unload();
    await sim?.close();
    sim = undefined;
  });

  it('lands a cue once on the machine that took over once the given director is stopped', async () => {
    // A session of its own: the given director stays off.
    const session = await startSimulator({ scenario: 'session', port: 0, drivePort: 0 });
    sim = session;
    const machine = (role: string) => {
      const found = session.machines().find((each) => each.role === role);
      if (!found) throw new Error(`the session has a ${role}`);
      return found;
    };
    const given = machine('director');
    const hosts = session.machines().map(({ hostname, url }) => `${hostname}=${new URL(url).host}`).join('\n');
    await helper.load(nodes, [
      { id: 'tab', type: 'tab', label: 'test' },
      { id: 'server', type: 'stagelink-server', host: given.url, followDirector: true, hosts },
      { id: 'n1', z: 'tab', type: 'stagelink-transport', server: 'server', command: 'play', transport: 'main', transportType: 'str', wires: [['out']] },
      { id: 'out', z: 'tab', type: 'helper' },
    ]);
    const director = async () => (await helper.request().get(`/stagelink/director?server=server&host=${encodeURIComponent(given.url)}`)).body as Record<string, unknown>;
    await eventually(async () => expect(await director()).toMatchObject({ hostname: given.hostname, followed: true }));

    await simControl(machine('actor').url, { action: 'stopMachine', hostname: given.hostname });
    const successor = machine('director');
    expect(successor.hostname).not.toBe(given.hostname);
    // The spec's bound for a client to follow a takeover.
    await eventually(async () => expect(await director()).toMatchObject({ hostname: successor.hostname, followed: true }), 10_000);

    const cues = session.arrivals.count('POST', endpoints.play.path);
    const out = collect('out');
    const failed = (helper.getNode('n1') as unknown as { error: { getCalls(): { args: unknown[] }[] } }).error;
    helper.getNode('n1')?.receive({ payload: 'go' });
    await eventually(() => expect(out.length + failed.getCalls().length).toBeGreaterThan(0));
    expect(failed.getCalls().map((call) => String(call.args[0]))).toEqual([]);
    // Only the director carries out a cue (the others refuse it): one arrival and main playing say it landed there.
    expect(session.arrivals.count('POST', endpoints.play.path) - cues).toBe(1);
    expect(isPlaying(session.state.transports.list().find((t) => t.name === 'main'))).toBe(true);
  });
});
