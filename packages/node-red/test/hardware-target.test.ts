import { startSimulator, type LogEntry, type Simulator } from '@stagelink/simulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { control, eventually, helper, nextMessage, nodeModules, smcAccount, statuses } from './support/harness.js';

type SessionMachineView = ReturnType<Simulator['machines']>[number];

const nodes = nodeModules('stagelink-server', 'stagelink-transport', 'stagelink-oled-out', 'stagelink-request');

/**
 * Hardware nodes act on the machine they name, in a session of several machines (the simulator's `session`
 * scenario, in the run's dialect): after the director role moves, an OLED message and a power-off for a machine
 * still land on that machine, with its account; a node that names none sends nothing. Where a request landed is
 * read from the simulator's request log, which names the listener that answered.
 */
describe('hardware nodes in a session whose director moves', () => {
  let sim: Simulator;
  const landed: { method: string; path: string; status: number; server: string }[] = [];

  beforeAll(async () => {
    const log = (entry: LogEntry) => {
      if (entry.event === 'request') landed.push({ method: String(entry.method), path: String(entry.path), status: Number(entry.status), server: String(entry['server']) });
    };
    sim = await startSimulator({ scenario: 'session', port: 0, drivePort: 0, seed: 3, log });
  });
  afterAll(async () => {
    await sim.close();
  });
  beforeEach(async () => {
    await control(sim, { action: 'reset' });
    landed.splice(0);
  });
  afterEach(async () => {
    await helper.unload();
  });

  const machine = (role: string): SessionMachineView => {
    const found = sim.machines().find((each) => each.role === role);
    if (!found) throw new Error(`the session has a ${role}`);
    return found;
  };
  /** Where a machine's hardware family answers: its SMC on r34, its own address in the documents. */
  const hardwareOf = (view: SessionMachineView): string => view.smcUrl ?? view.url;
  const writes = (path: string) => landed.filter((request) => request.method === 'POST' && request.path === path).map(({ server, status }) => ({ server, status }));

  /** The server node as a user fills it in: hosts for names the desk cannot resolve, each machine's SMC on r34. */
  function flow() {
    const hosts = sim.machines().map(({ hostname, url }) => `${hostname}=${new URL(url).host}`).join('\n');
    const smcs = sim.machines().flatMap(({ hostname, smcUrl }) => (smcUrl ? [`${hostname}=${smcUrl}`] : [])).join('\n');
    return [
      { id: 'tab', type: 'tab', label: 'test' },
      { id: 'server', type: 'stagelink-server', host: machine('director').url, followDirector: true, hosts, smcs },
      { id: 'cue', z: 'tab', type: 'stagelink-transport', server: 'server', command: '', transport: 'main', transportType: 'str', wires: [['out']] },
      { id: 'oled', z: 'tab', type: 'stagelink-oled-out', server: 'server', title: 'Stage', titleType: 'str', message: 'payload', messageType: 'msg', wires: [['out']] },
      { id: 'power', z: 'tab', type: 'stagelink-request', server: 'server', endpoint: 'powerOff', body: '', bodyType: 'json', query: '{}', queryType: 'json', params: '{}', paramsType: 'json', wires: [['out']] },
      { id: 'out', z: 'tab', type: 'helper' },
      { id: 'catcher', z: 'tab', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
      { id: 'caught', z: 'tab', type: 'helper' },
    ];
  }

  const credentials = () => smcAccount(sim);

  /** Moves the director role to the actor and lets the flow's client follow it with a cue. */
  async function moveDirectorToActor(): Promise<void> {
    await control(sim, { action: 'moveDirector', to: machine('actor').hostname });
    const cued = nextMessage('out');
    helper.getNode('cue')?.receive({ command: 'stop' });
    await cued;
    const server = helper.getNode('server') as unknown as { connection: { client: { director?: { hostname: string } } } };
    await eventually(() => expect(server.connection.client.director?.hostname).toBe(machine('director').hostname));
  }

  it('lands an OLED message and a power-off on the machine named, not on the machine that took the director role', async () => {
    const old = machine('director');
    if (!sim.smc) await control(sim, { action: 'login', loggedIn: true });
    await helper.load(nodes, flow(), credentials());
    await moveDirectorToActor();
    expect(machine('director').hostname).not.toBe(old.hostname);

    let out = nextMessage('out');
    helper.getNode('oled')?.receive({ payload: 'Powering down', machine: old.hostname });
    await out;
    out = nextMessage('out');
    helper.getNode('power')?.receive({ machine: old.hostname, confirm: true });
    await out;

    expect(writes('/api/oled/notification')).toEqual([{ server: hardwareOf(old), status: 201 }]);
    expect(writes('/api/chassis/power/off')).toEqual([{ server: hardwareOf(old), status: 200 }]);
  });

  it('sends nothing for a hardware node that names no machine, after the director moved, and says why', async () => {
    if (!sim.smc) await control(sim, { action: 'login', loggedIn: true });
    await helper.load(nodes, flow(), credentials());
    await moveDirectorToActor();
    const seen = statuses('power');

    let caught = nextMessage('caught');
    helper.getNode('oled')?.receive({ payload: 'Doors open' });
    expect((await caught).error?.message).toMatch(/HardwareTargetError: The OLED notification was not sent: no machine named/);
    caught = nextMessage('caught');
    helper.getNode('power')?.receive({ confirm: true });
    expect((await caught).error?.message).toMatch(/HardwareTargetError: POST \/api\/chassis\/power\/off .* was not sent: no machine named/);

    expect(seen.at(-1)).toMatchObject({ fill: 'red' });
    expect(sim.arrivals.count('POST', '/api/oled/notification')).toBe(0);
    expect(sim.arrivals.count('POST', '/api/chassis/power/off')).toBe(0);
  });

  it("sends the machine's SMC account with the write, which is refused as login required without it", async () => {
    const actor = machine('actor');
    await helper.load(nodes, flow());
    const caught = nextMessage('caught');
    helper.getNode('oled')?.receive({ payload: 'Places', machine: actor.hostname });
    expect((await caught).error?.message).toMatch(/login required/i);
    await helper.unload();

    // r34: the account in the server's credentials; the documents' machines have none and take a login instead.
    if (!sim.smc) await control(sim, { action: 'login', loggedIn: true });
    await helper.load(nodes, flow(), credentials());
    const out = nextMessage('out');
    helper.getNode('oled')?.receive({ payload: 'Places', machine: actor.hostname });
    await out;
    expect(writes('/api/oled/notification')).toEqual([
      { server: hardwareOf(actor), status: 401 },
      { server: hardwareOf(actor), status: 201 },
    ]);
  });
});
