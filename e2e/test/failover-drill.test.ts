import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverDirector, endpoints, isPlaying, livePresets, MediaServer, type MediaServerOptions } from '@stagelink/core';
import { DIALECT_ENV, startSimulator, takeLoopbackDnssdTurn, type Simulator } from '@stagelink/simulator';
import { control, eventually } from './support/simulator.js';

/**
 * The failover drill, as a venue runs it: a client is given the director's address and follows the director;
 * the director it was given is switched off; within the spec's 10 s the client names the machine that took over,
 * a cue lands there once, and live values come back. Each run of the suite drills one dialect (`pnpm test` runs
 * both): on r34 the machines' names (`ACTOR01`) resolve nowhere, so the client must learn their addresses from a
 * hosts map, from addresses it was given, or from the machines' DNS-SD announcements.
 */
const dialect = process.env[DIALECT_ENV] === 'r34' ? 'r34' : 'spec';

/** The spec's bound for a client to follow a takeover. */
const TAKEOVER_MS = 10_000;

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function session(options: { dnssd?: boolean } = {}): Promise<Simulator> {
  if (options.dnssd) open.push({ close: await takeLoopbackDnssdTurn() });
  const sim = await startSimulator({ scenario: 'session', port: 0, drivePort: 0, seed: 5, dialect, ...options });
  open.push(sim);
  return sim;
}

const machine = (sim: Simulator, role: string, index = 0) => {
  const found = sim.machines().filter((each) => each.role === role)[index];
  if (!found) throw new Error(`the session has no ${role} ${index}`);
  return found;
};

const mainTransport = (sim: Simulator) => sim.state.transports.list().find((transport) => transport.name === 'main');

/** The client of the drill, with its live FPS watched from the start. */
function follower(options: MediaServerOptions) {
  const ms = new MediaServer({ ...options, followDirector: true });
  open.push(ms);
  const values: unknown[] = [];
  /** How many values had come when the stream last dropped. */
  const drops: number[] = [];
  ms.live.subscribe(livePresets.localFps(), ({ value }) => values.push(value), { onStatus: (status) => status === 'offline' && drops.push(values.length) });
  return { ms, values, drops };
}

/** Stops the director the client was given and checks that the client keeps the show. */
async function drill(sim: Simulator, { ms, values, drops }: ReturnType<typeof follower>): Promise<void> {
  const given = machine(sim, 'director');
  await eventually(() => values.length > 0 && ms.director?.hostname === given.hostname, 'live values from the given director');
  const cuesBefore = sim.arrivals.count('POST', endpoints.play.path);
  expect(isPlaying(mainTransport(sim))).toBe(false);

  await control(machine(sim, 'actor').url, { action: 'stopMachine', hostname: given.hostname });
  const successor = machine(sim, 'director');
  expect(successor.hostname).not.toBe(given.hostname);

  await eventually(() => ms.director?.hostname === successor.hostname, `the client naming ${successor.hostname} the director`, TAKEOVER_MS);
  expect(ms.director).toEqual({ hostname: successor.hostname, url: successor.url, solo: false, previous: given.hostname });
  expect(ms.origin).toBe(successor.url);

  await ms.transport.play({ name: 'main' });
  // Only the director carries out a cue (the others refuse it), and the session's state is shared: one arrival and
  // a playing transport say the cue landed on the new director, once.
  expect(sim.arrivals.count('POST', endpoints.play.path) - cuesBefore).toBe(1);
  expect(isPlaying(mainTransport(sim))).toBe(true);

  // The stream went down with the given director; values after that come from the new one.
  const [dropped] = drops;
  if (dropped === undefined) throw new Error('The live stream never dropped with the director it came from.');
  await eventually(() => values.length > dropped && ms.live.status === 'online', 'live values from the new director', TAKEOVER_MS);
}

/** Hostname to address of every machine: on r34 the names resolve nowhere, as on a desk outside the show's DNS. */
const hostsOf = (sim: Simulator): Record<string, string> => Object.fromEntries(sim.machines().map(({ hostname, url }) => [hostname, new URL(url).host]));

// DNS-SD stays on loopback, which needs IFF_MULTICAST on lo (.ci/run sets it).
const loopbackMulticast = (Number(readFileSync('/sys/class/net/lo/flags', 'utf8')) & 0x1000) !== 0;

describe(`failover drill (${dialect}): the director the client was given stops`, () => {
  it('follows the takeover through a hosts map, with no backup addresses', async () => {
    const sim = await session();
    await drill(sim, follower({ host: machine(sim, 'director').url, hosts: hostsOf(sim) }));
  });

  it('follows the takeover through backup addresses, with no hosts map', async () => {
    const sim = await session();
    const backupHosts = sim.machines().filter(({ role }) => role !== 'director').map(({ url }) => url);
    await drill(sim, follower({ host: machine(sim, 'director').url, backupHosts }));
  });

  it.skipIf(!loopbackMulticast)('follows the takeover through DNS-SD names, with neither a hosts map nor backup addresses', async () => {
    const sim = await session({ dnssd: true });
    // A desk that knows nothing of the venue's addresses: it finds the director as announced.
    const found = await discoverDirector({ host: '127.0.0.1:9', dnssd: true, dnssdInterface: '127.0.0.1', timeoutMs: 5000 });
    expect(found.url).toBe(machine(sim, 'director').url);
    await drill(sim, follower({ host: found.url, dnssd: true, dnssdInterface: '127.0.0.1' }));
  });
});
