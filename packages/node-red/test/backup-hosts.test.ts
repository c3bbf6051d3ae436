import { endpoints, isPlaying } from '@stagelink/core';
import { DIALECT_ENV, simControl, startSimulator, takeLoopbackDnssdTurn, type Simulator } from '@stagelink/simulator';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { savedNode } from './support/editor-defaults.js';
import { collect, eventually, helper, nodeModules } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-transport');

/** The spec's bound for a client to follow a takeover. */
const TAKEOVER_MS = 10_000;
const r34 = process.env[DIALECT_ENV] === 'r34';
// DNS-SD stays on loopback, which needs IFF_MULTICAST on lo (.ci/run sets it).
const loopbackMulticast = (Number(readFileSync('/sys/class/net/lo/flags', 'utf8')) & 0x1000) !== 0;

interface Spied {
  getCalls(): { thisValue: unknown; args: unknown[] }[];
}

/** What node `id` itself (not another node: the helper spies on the prototype) logged with `method`, as text. */
function logged(id: string, method: 'error' | 'warn' | 'debug'): string[] {
  const node = helper.getNode(id) as unknown as Record<string, Spied> | undefined;
  if (!node) throw new Error(`No node ${id} in the flow`);
  return (node[method] as Spied)
    .getCalls()
    .filter((call) => call.thisValue === node)
    .map((call) => String(call.args[0] instanceof Error ? call.args[0].message : call.args[0]));
}

/**
 * A desk pointed at the director itself, as desks usually are: the server node is given the director's address and
 * no hosts map, with `server` added to its settings as the editor saves them. On r34 the machines' names
 * (`UNDERSTUDY01`) resolve nowhere, so once that director dies, only an address given leads to the one that took over.
 */
describe('stagelink-server when the director it was given dies and another machine takes over', () => {
  const open: (() => Promise<void>)[] = [];

  afterEach(async () => {
    await helper.unload();
    for (const close of open.splice(0).reverse()) await close();
  });

  /**
   * A session of its own for each test (its director stays off), announced over DNS-SD on loopback when asked: the
   * test then holds the machine's turn, or it would hear other suites' sessions.
   */
  async function session(options: { dialect?: 'r34'; dnssd?: boolean } = {}): Promise<Simulator> {
    if (options.dnssd) open.push(await takeLoopbackDnssdTurn());
    const sim = await startSimulator({ scenario: 'session', port: 0, drivePort: 0, ...options });
    open.push(() => sim.close());
    return sim;
  }

  const machine = (session: Simulator, role: string) => {
    const found = session.machines().find((each) => each.role === role);
    if (!found) throw new Error(`the session has a ${role}`);
    return found;
  };

  async function loadFlow(session: Simulator, server: Record<string, unknown>): Promise<{ given: ReturnType<typeof machine> }> {
    const given = machine(session, 'director');
    await helper.load(nodes, [
      { id: 'tab', type: 'tab', label: 'test' },
      { id: 'server', ...savedNode('stagelink-server', { host: given.url, ...server }) },
      { id: 'n1', z: 'tab', wires: [['out']], ...savedNode('stagelink-transport', { server: 'server', command: 'play', transport: 'main', transportType: 'str' }) },
      { id: 'out', z: 'tab', type: 'helper' },
      { id: 'catcher', z: 'tab', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
      { id: 'caught', z: 'tab', type: 'helper' },
    ]);
    await eventually(async () => expect(await director(given.url)).toMatchObject({ hostname: given.hostname, followed: true }));
    return { given };
  }

  /** What the editor's "Directed by" line is told for the deployed server. */
  const director = async (host: string) => (await helper.request().get(`/stagelink/director?server=server&host=${encodeURIComponent(host)}`)).body as Record<string, unknown>;

  /** Sends the transport node one msg; resolves with its output and the errors Catch saw. */
  async function cue(): Promise<{ sent: number; caught: string[] }> {
    const out = collect('out');
    const caught = collect('caught');
    helper.getNode('n1')?.receive({ payload: 'go' });
    await eventually(() => expect(out.length + caught.length).toBeGreaterThan(0));
    return { sent: out.length, caught: caught.map((msg) => msg.error?.message ?? '') };
  }

  it(`cues the machine that took over through a backup host (${process.env[DIALECT_ENV] ?? 'spec'})`, async () => {
    const running = await session();
    // The understudy and the rest, as a user lists them: one a line, or separated by commas.
    const others = running.machines().filter(({ role }) => role !== 'director').map(({ url }) => url);
    const { given } = await loadFlow(running, { backupHosts: others.join(',\n') });

    await simControl(machine(running, 'actor').url, { action: 'stopMachine', hostname: given.hostname });
    const successor = machine(running, 'director');
    expect(successor.hostname).not.toBe(given.hostname);
    await eventually(async () => expect(await director(given.url)).toMatchObject({ hostname: successor.hostname, url: successor.url, followed: true }), TAKEOVER_MS);

    const cues = running.arrivals.count('POST', endpoints.play.path);
    expect(await cue()).toEqual({ sent: 1, caught: [] });
    // Only the director carries out a cue (the others refuse it): one arrival and main playing say it landed there, once.
    expect(running.arrivals.count('POST', endpoints.play.path) - cues).toBe(1);
    expect(isPlaying(running.state.transports.list().find((t) => t.name === 'main'))).toBe(true);

    // The editor's Test connection, for the host as typed (the dead director), lists the session through the deployed server.
    const tested = await helper.request().get(`/stagelink/machines?server=server&host=${encodeURIComponent(given.url)}`);
    expect(tested.status).toBe(200);
    expect((tested.body as { hostname: string }[]).map(({ hostname }) => hostname)).toContain(successor.hostname);
  });

  // On the documents' dialect the machines' names are loopback addresses that resolve: the follower finds the new
  // director by name, backup host or not. A shipping session's names do not.
  it.runIf(r34)('loses the director for good without a backup host, on a session whose names do not resolve (r34)', async () => {
    const running = await session({ dialect: 'r34' });
    const { given } = await loadFlow(running, {});

    await simControl(machine(running, 'actor').url, { action: 'stopMachine', hostname: given.hostname });
    const successor = machine(running, 'director');
    // The follower has looked for the director after the stop: at the dead address, and by name at the one that
    // took over, which resolves nowhere.
    const byName = new URL(successor.url);
    byName.hostname = successor.hostname.toLowerCase();
    const looked = (url: string) => logged('server', 'debug').some((line) => line.startsWith(`director check: ${url} did not answer`));
    await eventually(() => expect(looked(given.url) && looked(byName.origin)).toBe(true), TAKEOVER_MS);

    const cues = running.arrivals.count('POST', endpoints.play.path);
    const { sent, caught } = await cue();
    expect(sent).toBe(0);
    expect(caught).toEqual([expect.stringContaining(new URL(given.url).host)]);
    expect(running.arrivals.count('POST', endpoints.play.path) - cues).toBe(0);
    // The editor's "Directed by" line says the same: the machine it still follows does not answer.
    expect(String((await director(given.url))['error'])).toContain(`Could not reach ${new URL(given.url).host}`);
  });

  it.runIf(r34 && loopbackMulticast)('cues the machine that took over, found over DNS-SD, with no backup host (r34)', async () => {
    const running = await session({ dialect: 'r34', dnssd: true });
    const { given } = await loadFlow(running, { dnssd: true });

    await simControl(machine(running, 'actor').url, { action: 'stopMachine', hostname: given.hostname });
    const successor = machine(running, 'director');
    await eventually(async () => expect(await director(given.url)).toMatchObject({ hostname: successor.hostname, url: successor.url, followed: true }), TAKEOVER_MS);

    const cues = running.arrivals.count('POST', endpoints.play.path);
    expect(await cue()).toEqual({ sent: 1, caught: [] });
    expect(running.arrivals.count('POST', endpoints.play.path) - cues).toBe(1);
  });

  // A desk on venue Wi-Fi and the show network names the show network's address; here the session is on loopback.
  it.runIf(r34 && loopbackMulticast)('finds the machine that took over by DNS-SD on the interface given (r34)', async () => {
    const running = await session({ dialect: 'r34', dnssd: true });
    const { given } = await loadFlow(running, { dnssd: true, dnssdInterface: ' 127.0.0.1 ' });
    expect(logged('server', 'error')).toEqual([]);

    await simControl(machine(running, 'actor').url, { action: 'stopMachine', hostname: given.hostname });
    const successor = machine(running, 'director');
    await eventually(async () => expect(await director(given.url)).toMatchObject({ hostname: successor.hostname, url: successor.url, followed: true }), TAKEOVER_MS);
    expect(await cue()).toEqual({ sent: 1, caught: [] });
    // It listened there, not on every interface of this computer.
    expect(logged('server', 'debug')).toContainEqual(expect.stringMatching(/^director check: DNS-SD on 127\.0\.0\.1 announced [A-Z]/));
  });
});

describe('the editor\'s Discover on the DNS-SD interface the dialog names', () => {
  const open: (() => Promise<void>)[] = [];

  afterEach(async () => {
    await helper.unload();
    for (const close of open.splice(0).reverse()) await close();
  });

  const discoverMachines = async (dnssdInterface: string) => helper.request().get(`/stagelink/discover-machines?dnssdInterface=${encodeURIComponent(dnssdInterface)}`);

  it.runIf(loopbackMulticast)('lists the machines announced on that interface', async () => {
    // Other suites' simulators announce on loopback too: hold the turn while this one announces.
    open.push(await takeLoopbackDnssdTurn());
    const running = await startSimulator({ scenario: 'session', dialect: 'r34', dnssd: true, port: 0, drivePort: 0 });
    open.push(() => running.close());
    await helper.load(nodes, [{ id: 'server', ...savedNode('stagelink-server', { host: '127.0.0.1:9' }) }]);

    const onLoopback = await discoverMachines('127.0.0.1');
    expect(onLoopback.status).toBe(200);
    const hostnames = (onLoopback.body as { hostname: string }[]).map(({ hostname }) => hostname);
    expect(hostnames).toEqual(expect.arrayContaining(running.machines().map(({ hostname }) => hostname)));
  }, 20_000);

  it.each(['discover-machines?', 'discover?host=http%3A%2F%2F127.0.0.1%3A9&'])('refuses an interface that is not an IPv4 address in %s, with the catalog\'s words', async (query) => {
    await helper.load(nodes, [{ id: 'server', ...savedNode('stagelink-server', { host: '127.0.0.1:9' }) }]);
    const answer = await helper.request().get(`/stagelink/${query}dnssdInterface=eth0`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'The DNS-SD interface "eth0" is not an IPv4 address: give this computer\'s address on the show network, such as 10.0.0.20, or leave it blank for all interfaces.',
      words: { key: 'error.dnssdInterface', values: { value: 'eth0' } },
    });
  });
});

describe('stagelink-server backup hosts and DNS-SD as settings', () => {
  afterEach(async () => {
    await helper.unload();
  });

  /** A server node as the editor saves it, with `changes`, and a transport node using it. */
  const flow = (changes: Record<string, unknown>) => [
    { id: 'tab', type: 'tab', label: 'test' },
    { id: 'server', ...savedNode('stagelink-server', { host: '127.0.0.1:9', ...changes }) },
    { id: 'n1', z: 'tab', wires: [[]], ...savedNode('stagelink-transport', { server: 'server', command: 'play', transport: 'main', transportType: 'str' }) },
  ];

  it('saves no backup hosts, no DNS-SD and every interface by default', () => {
    expect(savedNode('stagelink-server')).toMatchObject({ followDirector: true, backupHosts: '', dnssd: false, dnssdInterface: '' });
  });

  it.each(['eth0', '10.0.0.300'])('refuses the DNS-SD interface %j at deploy, saying what to type instead', async (dnssdInterface) => {
    await helper.load(nodes, flow({ dnssd: true, dnssdInterface }));
    expect(logged('server', 'error')).toEqual([
      `The stagelink-server setting cannot work: The DNS-SD interface "${dnssdInterface}" is not an IPv4 address: give this computer's address on the show network, such as 10.0.0.20, or leave it blank for all interfaces.`,
    ]);
  });

  it.each([
    ['backup hosts', { backupHosts: '10.0.0.6' }, /"Backup hosts" is used only to look for the director: turn on Director/],
    ['DNS-SD', { dnssd: true }, /"Find machines over DNS-SD" is used only to look for the director: turn on Director/],
  ])('refuses %s without following the director at deploy, saying which setting and what to do', async (_what, changes, words) => {
    await helper.load(nodes, flow({ followDirector: false, ...changes }));
    expect(logged('server', 'error')).toEqual([expect.stringMatching(words)]);
    expect(logged('server', 'error')[0]).toMatch(/^The stagelink-server setting cannot work: /);
  });

  it('names a backup host that is not an address at deploy, with which of the list it is', async () => {
    await helper.load(nodes, flow({ backupHosts: '10.0.0.6\nftp://10.0.0.7' }));
    expect(logged('server', 'error')).toEqual([expect.stringMatching(/^The stagelink-server setting cannot work: Backup hosts: Address 2 of the list: "ftp:\/\/10\.0\.0\.7" uses ftp/)]);
  });

  it('takes DNS-SD and backup hosts with the director followed, with nothing to say at deploy', async () => {
    await helper.load(nodes, flow({ backupHosts: '# the understudy\n10.0.0.6', dnssd: true }));
    expect(logged('server', 'error')).toEqual([]);
  });
});
