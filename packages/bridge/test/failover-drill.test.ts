import { readFileSync } from 'node:fs';
import { endpoints, isPlaying } from '@stagelink/core';
import { DIALECT_ENV, takeLoopbackDnssdTurn } from '@stagelink/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeOptions } from '../src/index.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/drill';
/** The spec's bound for a client to follow a takeover. */
const TAKEOVER_MS = 10_000;
const dialect = process.env[DIALECT_ENV] === 'r34' ? 'r34' : 'spec';
// DNS-SD stays on loopback, which needs IFF_MULTICAST on lo (.ci/run sets it).
const loopbackMulticast = (Number(readFileSync('/sys/class/net/lo/flags', 'utf8')) & 0x1000) !== 0;

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

const on = (suffix: string) => (message: Received) => message.topic === `${PREFIX}/${suffix}`;
const fresh = (suffix: string) => (message: Received) => on(suffix)(message) && (message.json as { stale?: boolean }).stale !== true;
const stale = (suffix: string) => (message: Received) => on(suffix)(message) && (message.json as { stale?: boolean }).stale === true;
const naming = (hostname: string) => (message: Received) => on('director')(message) && (message.json as { hostname: string }).hostname === hostname;

/**
 * Starts a session and a bridge given the director's own address (and what `options` add), stops that director,
 * and checks that within the spec's 10 s the director topic names the machine that took over, a cue sent over MQTT
 * lands there once, and the FPS topics are fresh again.
 */
async function drill(options: (venue: TestVenue) => Partial<BridgeOptions>, venueOptions: { dnssd?: boolean } = {}): Promise<void> {
  if (venueOptions.dnssd) open.push({ close: await takeLoopbackDnssdTurn() });
  const venue = await startVenue(undefined, venueOptions);
  open.push(venue);
  const watcher = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`]);
  open.push(watcher);
  const machineIn = (role: string) => venue.session.sim.machines().find((machine) => machine.role === role);
  const given = machineIn('director');
  if (!given) throw new Error('the session has a director');
  const bridge = await venue.startBridge(PREFIX, { server: given.url, hosts: undefined, ...options(venue) });
  open.push(bridge);
  await watcher.waitFor(naming(given.hostname), 10_000, 0, `the director ${given.hostname}`);
  // Every machine's FPS once: a topic never published has no value to mark stale.
  for (const { hostname } of venue.session.sim.machines()) await watcher.waitFor(fresh(`machines/${hostname}/fps`), 10_000, 0, `FPS of ${hostname}`);
  const main = () => venue.session.sim.state.transports.list().find((transport) => transport.name === 'main');
  expect(isPlaying(main())).toBe(false);

  const since = watcher.messages.length;
  await venue.session.control({ action: 'stopMachine', hostname: given.hostname });
  const successor = machineIn('director');
  if (!successor || successor.hostname === given.hostname) throw new Error('another machine took the director role');
  const marked = await watcher.waitFor(stale(`machines/${successor.hostname}/fps`), 5000, since, 'FPS marked stale with the stream down');
  const named = await watcher.waitFor(naming(successor.hostname), TAKEOVER_MS, since, `the director topic naming ${successor.hostname}`);
  expect(named.json).toEqual({ hostname: successor.hostname, url: successor.url });

  const cuesBefore = venue.session.sim.arrivals.count('POST', endpoints.play.path);
  const cue = watcher.messages.length;
  await watcher.client.publishAsync(`${PREFIX}/cmd/transport/play`, JSON.stringify({ transport: 'main', id: `drill-${Date.now()}`, sentAt: Date.now() }), { qos: 1 });
  const result = await watcher.waitFor(on('result'), 5000, cue, 'the result of the cue');
  expect(result.json).toMatchObject({ ok: true });
  // Only the director carries out a cue and the session's state is shared: one arrival and a playing transport
  // say the cue landed on the new director, once.
  expect(venue.session.sim.arrivals.count('POST', endpoints.play.path) - cuesBefore).toBe(1);
  expect(isPlaying(main())).toBe(true);

  const after = watcher.messages.indexOf(marked) + 1;
  for (const { hostname } of venue.session.sim.machines().filter((machine) => machine.running)) {
    await watcher.waitFor(fresh(`machines/${hostname}/fps`), TAKEOVER_MS, after, `FPS of ${hostname} fresh again`);
  }
}

/**
 * The failover drill through the bridge, as a venue runs it: the bridge is given the director's address and follows
 * the director; that director is switched off. On r34 the machines' names resolve nowhere, so the bridge must learn
 * their addresses from a hosts map, from backup addresses, or from their DNS-SD announcements.
 */
describe.skipIf(MOSQUITTO_MISSING)(`failover drill through the bridge (${dialect}): the director it was given stops`, () => {
  it('follows the takeover through a hosts map, with no backup addresses', () => drill((venue) => ({ hosts: venue.session.hosts })));

  it('follows the takeover through backup addresses, with no hosts map', () =>
    drill((venue) => ({ backupHosts: venue.session.sim.machines().filter(({ role }) => role !== 'director').map(({ url }) => url) })));

  it.skipIf(!loopbackMulticast)('follows the takeover through DNS-SD names, with neither a hosts map nor backup addresses', () =>
    drill(() => ({ dnssd: true, dnssdInterface: '127.0.0.1' }), { dnssd: true }));
});
