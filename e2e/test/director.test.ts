import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, discoverDirector, discoverMachines, livePresets, MediaServer, StatusError, type DirectorChange, type LiveStatus } from '@stagelink/core';
import { startSimulator, takeLoopbackDnssdTurn, type Simulator } from '@stagelink/simulator';
import { control, eventually } from './support/simulator.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function session(options: { dnssd?: boolean; dialect?: 'spec' | 'r34'; log?: NonNullable<Parameters<typeof startSimulator>[0]>['log'] } = {}): Promise<Simulator> {
  if (options.dnssd) await loopbackDnssdTurn();
  const sim = await startSimulator({ scenario: 'session', port: 0, drivePort: 0, seed: 3, ...options });
  open.push(sim);
  hosts = hostsOf(sim);
  return sim;
}

/**
 * Where each machine of the session listens, by the name the session gives it: on r34 those are Windows machine
 * names no resolver knows, so a client following the director needs them mapped to addresses.
 */
function hostsOf(sim: Simulator): Record<string, string> {
  return Object.fromEntries(sim.machines().map(({ hostname, url }) => [hostname, new URL(url).host]));
}

let hosts: Record<string, string> = {};

/** Other suites' simulators announce on loopback too: a test that announces or looks holds the turn until it ends. */
async function loopbackDnssdTurn(): Promise<void> {
  const release = await takeLoopbackDnssdTurn();
  open.push({ close: release });
}

function client(host: string): MediaServer {
  const ms = new MediaServer({ host, followDirector: true, hosts, live: { reconnectBaseMs: 50, reconnectCapMs: 500 } });
  open.push(ms);
  return ms;
}

const machine = (sim: Simulator, role: string, index = 0) => {
  const found = sim.machines().filter((each) => each.role === role)[index];
  if (!found) throw new Error(`the session has a ${role}`);
  return found;
};

describe('director discovery', () => {
  it('finds the director from an actor by query', async () => {
    const sim = await session();
    const found = await discoverDirector({ host: machine(sim, 'actor').url, hosts });
    expect(found).toEqual({ hostname: machine(sim, 'director').hostname, url: machine(sim, 'director').url, solo: false, via: 'query' });
  });

  it('uses a solo machine directly', async () => {
    const sim = await startSimulator({ scenario: 'solo', port: 0, drivePort: 0 });
    open.push(sim);
    const found = await discoverDirector({ host: sim.mediaServer.url });
    expect(found).toMatchObject({ url: sim.mediaServer.url, solo: true, via: 'query' });
  });

  it('says clearly when nothing answers, without an unhandled error', async () => {
    await loopbackDnssdTurn();
    const error = await discoverDirector({ host: '127.0.0.1:9', dnssd: true, dnssdInterface: '127.0.0.1', timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/No director found/);
  });

  // DNS-SD stays on loopback, which needs IFF_MULTICAST on lo (.ci/run sets it).
  const loopbackMulticast = (Number(readFileSync('/sys/class/net/lo/flags', 'utf8')) & 0x1000) !== 0;
  it.skipIf(!loopbackMulticast)('finds a director announced over DNS-SD on loopback', async () => {
    const sim = await session({ dnssd: true });
    const found = await discoverDirector({ host: '127.0.0.1:9', dnssd: true, dnssdInterface: '127.0.0.1', timeoutMs: 5000 });
    // The announcement names the director's address (an r34 director's machine name would not resolve here).
    expect(found).toMatchObject({ url: machine(sim, 'director').url, solo: false, via: 'dnssd' });
    expect(found.session).toBe(sim.state.project.projectPath);
  });

  it.skipIf(!loopbackMulticast)('finds a director announced only under the shipping names, at its API port, with its session', async () => {
    const sim = await session({ dnssd: true, dialect: 'r34' });
    const found = await discoverDirector({ host: '127.0.0.1:9', dnssd: true, dnssdInterface: '127.0.0.1', timeoutMs: 5000 });
    // The port is the one `d3api` announces; the name the one `_d3host` announces for the director's address.
    expect(found).toEqual({ hostname: 'DIRECTOR01', url: machine(sim, 'director').url, session: sim.state.project.projectPath, solo: false, via: 'dnssd' });
  });

  it.skipIf(!loopbackMulticast)('lists the machines a shipping session announces, each once, with its role, version and API url', async () => {
    const sim = await session({ dnssd: true, dialect: 'r34' });
    const problems: string[] = [];
    const machines = await discoverMachines({ dnssdInterface: '127.0.0.1', timeoutMs: 2000, onProblem: (problem) => problems.push(problem) });
    const { major, minor, hotfix, revision } = sim.state.project.version;
    const expected = sim.machines().map(({ hostname, role, url }) => ({
      hostname,
      role,
      url,
      version: `${major}.${minor}.${hotfix}.${revision}`,
      project: sim.state.project.projectPath,
      branch: `r${major}.${minor}`,
    }));
    // The director announces its API on two interfaces (`d3api`, `d3api (2)`): still one machine.
    expect(machines).toEqual([...expected].sort((a, b) => a.hostname.localeCompare(b.hostname)));
    expect(problems).toEqual([]);
  });

  it('reports a DNS-SD port held by another program as a problem, not a crash', async (context) => {
    // Held before the port: other suites' DNS-SD sockets would fail to bind beside this holder.
    await loopbackDnssdTurn();
    // Without address reuse the holder makes every mDNS socket's bind fail with EADDRINUSE.
    const holder = createSocket({ type: 'udp4', reuseAddr: false });
    const held = await new Promise<boolean>((resolve) => {
      holder.once('error', () => resolve(false));
      holder.bind({ port: 5353, address: '0.0.0.0', exclusive: true }, () => resolve(true));
    });
    open.push({ close: () => new Promise<void>((resolve) => holder.close(() => resolve())) });
    // Another program (an mDNS responder) may hold the port with address reuse, which DNS-SD then shares.
    context.skip(!held, 'port 5353 is taken by another program, so this test cannot hold it alone');
    const error = await discoverDirector({ host: '127.0.0.1:9', dnssd: true, dnssdInterface: '127.0.0.1', timeoutMs: 2000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/DNS-SD: .*EADDRINUSE/);
    const sim = await session({ dnssd: true });
    expect(await discoverDirector({ host: machine(sim, 'actor').url, hosts })).toMatchObject({ via: 'query' });
  });
});

/** A client given only an actor of a new session, watching local FPS and the director's moves. */
async function watchFromActor() {
  const sim = await session();
  const ms = client(machine(sim, 'actor').url);
  const moves: DirectorChange[] = [];
  ms.on('director', (change) => moves.push(change));
  const values: unknown[] = [];
  const statuses: LiveStatus[] = [];
  ms.live.subscribe(livePresets.localFps(), ({ value }) => values.push(value), { onStatus: (status) => statuses.push(status) });
  return { sim, ms, moves, values, statuses };
}

describe('following the director', () => {
  it('sends requests to the director when given only an actor', async () => {
    const sim = await session();
    const actor = machine(sim, 'actor');
    const ms = client(actor.url);
    await ms.transport.play({ name: 'main' });
    expect(ms.origin).toBe(machine(sim, 'director').url);
    expect(ms.director).toEqual({ hostname: machine(sim, 'director').hostname, url: machine(sim, 'director').url, solo: false });
    const [active] = await ms.transport.activeTransport();
    expect(active?.playmode).toBe('Play');
  });

  it("reads the new director's own description again after the director moves", async () => {
    const described: string[] = [];
    const sim = await session({
      dialect: 'r34',
      log: (entry) => {
        if (entry.event === 'request' && entry.path === '/docs/session/d3api.swagger.json') described.push(String(entry.path));
      },
    });
    const ms = client(machine(sim, 'actor').url);
    await ms.describe();
    await ms.describe();
    expect(described).toHaveLength(1);
    await control(sim.mediaServer.url, { action: 'moveDirector', to: machine(sim, 'actor', 1).hostname });
    await ms.transport.stop({ name: 'main' });
    await expect(ms.describe()).resolves.toMatchObject({ version: '2.0.3' });
    expect(described).toHaveLength(2);
  });

  it('refuses session requests on a machine that is not the director, naming the director', async () => {
    const sim = await session();
    const direct = new MediaServer({ host: machine(sim, 'actor').url });
    open.push(direct);
    const error = await direct.transport.play({ name: 'main' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StatusError);
    expect((error as Error).message).toContain(machine(sim, 'director').hostname);
  });

  it('moves commands and live values to the new director by itself', async () => {
    const { sim, ms, moves, values, statuses } = await watchFromActor();
    await eventually(() => values.length > 0, 'a first live value');

    const [first, next] = [machine(sim, 'director').hostname, machine(sim, 'actor', 1).hostname];
    await control(sim.mediaServer.url, { action: 'moveDirector', to: next });
    await ms.transport.stop({ name: 'main' });
    expect(ms.origin).toBe(machine(sim, 'director').url);
    expect(moves.map(({ hostname, previous }) => ({ hostname, previous }))).toEqual([
      { hostname: first, previous: undefined },
      { hostname: next, previous: first },
    ]);

    const before = values.length;
    await eventually(() => values.length > before && ms.live.status === 'online', 'live values from the new director');
    expect(statuses).toContain('offline');
  });

  it('resumes live values from a new director with no command sent', async () => {
    const { sim, ms, moves, values, statuses } = await watchFromActor();
    await eventually(() => values.length > 0 && moves.length > 0, 'a first live value from the director');
    // The stream waited for the director instead of trying the actor first.
    expect(statuses).toEqual(['connecting', 'online']);

    const next = machine(sim, 'actor', 1).hostname;
    await control(sim.mediaServer.url, { action: 'moveDirector', to: next });
    await eventually(() => statuses.includes('offline'), 'the old director dropping the stream');
    const before = values.length;
    await eventually(() => values.length > before && ms.live.status === 'online', 'live values from the new director', 5000);
    expect(moves.at(-1)?.hostname).toBe(next);
  });

  it('resumes live values from the machine that took over from a stopped director', async () => {
    const { sim, ms, values, statuses } = await watchFromActor();
    await eventually(() => values.length > 0, 'a first live value from the director');
    const stopped = machine(sim, 'director').url;

    await control(machine(sim, 'actor').url, { action: 'stopMachine', hostname: machine(sim, 'director').hostname });
    await eventually(() => statuses.includes('offline'), 'the stream dropping with the director');
    const before = values.length;
    await eventually(() => values.length > before && ms.live.status === 'online', 'live values from the new director', 8000);
    expect(ms.origin).toBe(machine(sim, 'director').url);
    expect(ms.origin).not.toBe(stopped);
  });

  it('uses a solo machine directly, for requests and live values', async () => {
    const sim = await startSimulator({ scenario: 'solo', port: 0, drivePort: 0 });
    open.push(sim);
    const ms = client(sim.mediaServer.url);
    const values: unknown[] = [];
    ms.live.subscribe(livePresets.localFps(), ({ value }) => values.push(value));
    await ms.transport.play({ name: 'main' });
    expect(ms.director).toMatchObject({ url: sim.mediaServer.url, solo: true });
    expect(ms.origin).toBe(sim.mediaServer.url);
    await eventually(() => values.length > 0, 'a live value from the solo machine');
  });

  it('follows a director that was stopped to the machine that took over', async () => {
    const sim = await session();
    const ms = client(machine(sim, 'understudy').url);
    await ms.status.health();
    const stopped = machine(sim, 'director');
    await control(machine(sim, 'actor').url, { action: 'stopMachine', hostname: stopped.hostname });
    await expect(ms.transport.play({ name: 'main' })).resolves.toBeUndefined();
    expect(ms.origin).toBe(machine(sim, 'director').url);
    expect(ms.origin).not.toBe(stopped.url);
  });

  it('follows the role away from a stopped director it was given, on names the desk cannot resolve (r34)', async () => {
    const sim = await session({ dialect: 'r34' });
    const given = machine(sim, 'director');
    const ms = client(given.url);
    await ms.transport.play({ name: 'main' });
    await control(machine(sim, 'actor').url, { action: 'stopMachine', hostname: given.hostname });
    await eventually(() => ms.director?.hostname === machine(sim, 'director').hostname, 'the client naming the new director', 10_000);
    expect(ms.director).toMatchObject({ url: machine(sim, 'director').url, previous: given.hostname });
    await expect(ms.transport.stop({ name: 'main' })).resolves.toBeUndefined();
  });

  it('finds the director through a backup address while the machine it was given is off', async () => {
    const sim = await session();
    const off = machine(sim, 'actor');
    await control(sim.mediaServer.url, { action: 'stopMachine', hostname: off.hostname });
    const ms = new MediaServer({ host: off.url, backupHosts: [machine(sim, 'understudy').url], followDirector: true, hosts });
    open.push(ms);
    await expect(ms.transport.play({ name: 'main' })).resolves.toBeUndefined();
    expect(ms.origin).toBe(machine(sim, 'director').url);
  });

  it('refuses backup addresses or DNS-SD without following the director, and a backup that is not an address', () => {
    expect(() => new MediaServer({ host: '127.0.0.1', backupHosts: ['127.0.0.2'] })).toThrow(/followDirector/);
    expect(() => new MediaServer({ host: '127.0.0.1', backupHosts: [''], followDirector: true })).toThrow(/No media-server host given/);
    expect(() => new MediaServer({ host: '127.0.0.1', dnssd: true })).toThrow(/followDirector/);
  });

  it('logs a director listener that throws and keeps following, with no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    open.push({ close: () => Promise.resolve(void process.off('unhandledRejection', onUnhandled)) });
    const sim = await session();
    const warnings: string[] = [];
    const ms = new MediaServer({ host: machine(sim, 'actor').url, followDirector: true, hosts, logger: { warn: (line) => warnings.push(line) } });
    open.push(ms);
    ms.on('director', () => {
      throw new Error('listener bug');
    });
    const values: unknown[] = [];
    ms.live.subscribe(livePresets.localFps(), ({ value }) => values.push(value));

    await ms.transport.play({ name: 'main' });
    expect(ms.origin).toBe(machine(sim, 'director').url);
    await control(sim.mediaServer.url, { action: 'moveDirector', to: machine(sim, 'actor', 1).hostname });
    await ms.transport.stop({ name: 'main' });
    expect(ms.origin).toBe(machine(sim, 'director').url);
    const before = values.length;
    await eventually(() => values.length > before && ms.live.status === 'online', 'live values from the new director');

    expect(warnings.filter((line) => line.includes('listener bug'))).toHaveLength(2);
    // A rejection is reported as unhandled only after the microtasks of its turn have run.
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
  });

  it('reports a clean error when no machine of the session answers', async () => {
    const sim = await session();
    const ms = client(machine(sim, 'actor').url);
    await ms.status.health();
    await sim.close();
    await expect(ms.transport.play({ name: 'main' })).rejects.toBeInstanceOf(ConnectionError);
  });
});
