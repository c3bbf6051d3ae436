import { MediaServer, type ShowClockSnapshot } from '@stagelink/core';
import { simControl } from '@stagelink/simulator';
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { decode, encode } from 'node-osc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/cli-args.js';
import type { Bridge } from '../src/index.js';
import { OnceAPeriod } from '../src/once-a-period.js';
import { oscCommandOf } from '../src/osc-commands.js';
import { oscBridgeName, oscSegment, OscTransportNames, oscValuesOf } from '../src/osc-state.js';
import type { StateEvent, TransportStateValue } from '../src/session-events.js';
import { OptionError, resolveOptions } from '../src/options.js';
import { silentLog } from '../src/log.js';
import { oscHostAddress, type HostLookup } from '../src/osc-host.js';
import { OscOut } from '../src/osc-out.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { bundle, freeUdpPort, LIBLO_MISSING, message, OscDump, oscsend, OscPeer, type DumpedMessage } from './support/osc.js';
import { startVenue, type TestVenue } from './support/venue.js';

const SKIP = MOSQUITTO_MISSING ?? LIBLO_MISSING;
if (SKIP) console.warn(`skipped: ${SKIP}`);

/** Core's default timings report a quiet subscription stale, and live again, well within this. */
const STALE_BOUND_MS = 25_000;

const transportState: TransportStateValue = { playmode: 'Play', playing: true, track: 'Intro', volume: 1, brightness: 1, engaged: true };

describe('OSC values of the bridge state', () => {
  it('sends each value with its OSC 1.0 type and a stale mark beside it', () => {
    expect(oscValuesOf({ what: 'machine', which: 'node-a', part: 'fps', value: { value: 59.9, average: 60, alert: 'ok' } })).toEqual([
      { address: '/machines/node-a/fps', args: [{ type: 'f', value: 59.9 }] },
      { address: '/machines/node-a/fps/stale', args: [{ type: 'i', value: 0 }] },
    ]);
    expect(oscValuesOf({ what: 'machine', which: 'node-a', part: 'health', value: { severity: 'warning', states: [] }, marks: { stale: true, reason: 'read failed' } })).toEqual([
      { address: '/machines/node-a/health', args: [{ type: 's', value: 'warning' }] },
      { address: '/machines/node-a/health/stale', args: [{ type: 'i', value: 1 }] },
    ]);
    expect(oscValuesOf({ what: 'transport', which: 'side screens', part: 'state', value: transportState }).map(({ address, args }) => [address, args[0]?.type, args[0]?.value])).toEqual([
      ['/transports/side_screens/playmode', 's', 'Play'],
      ['/transports/side_screens/playmode/stale', 'i', 0],
      ['/transports/side_screens/playing', 'i', 1],
      ['/transports/side_screens/playing/stale', 'i', 0],
    ]);
    expect(oscValuesOf({ what: 'director', part: 'director', value: { hostname: 'a', url: 'http://a' } })).toEqual([]);
    expect(oscValuesOf({ what: 'bridge', part: 'link', value: { status: 'online' } })).toEqual([]);
  });

  it('sends the show clock: time, track, section and its time left, the next cue', () => {
    const clock = {
      status: 'online',
      time: 12.5,
      trackRemaining: 167.5,
      track: { uid: '2', name: 'Intro', length: 180 },
      section: { index: 1, time: 10, elapsed: 2.5, remaining: 7.5 },
      cue: { next: { kind: 'CUE', value: 'GO 4', time: 15 }, nextIn: 2.5 },
    };
    const clockOf = (value: object, marks?: { stale: true; reason: 'no link' }): StateEvent => ({ what: 'transport', which: 'main', part: 'clock', value: value as ShowClockSnapshot, ...(marks ? { marks } : {}) });
    const sent = Object.fromEntries(oscValuesOf(clockOf(clock)).map(({ address, args }) => [address, args[0]]));
    expect(sent).toMatchObject({
      '/transports/main/time': { type: 'f', value: 12.5 },
      '/transports/main/track': { type: 's', value: 'Intro' },
      '/transports/main/section': { type: 'i', value: 1 },
      '/transports/main/section_remaining': { type: 'f', value: 7.5 },
      '/transports/main/cue_next': { type: 's', value: 'GO 4' },
      '/transports/main/cue_next_in': { type: 'f', value: 2.5 },
      '/transports/main/time/stale': { type: 'i', value: 0 },
    });
    const bare = Object.fromEntries(oscValuesOf(clockOf({ ...clock, section: undefined, cue: {} }, { stale: true, reason: 'no link' })).map(({ address, args }) => [address, args[0]?.value]));
    expect(bare).toMatchObject({ '/transports/main/section': -1, '/transports/main/section_remaining': 167.5, '/transports/main/cue_next': '', '/transports/main/cue_next_in': -1, '/transports/main/cue_next/stale': 1 });
  });

  it('names the bridge by the last level of its prefix, and spells names as OSC address parts', () => {
    expect(oscBridgeName('venue/stagelink/main hall')).toBe('main_hall');
    expect(oscSegment('a/b#c*d,e?f[g]h{i}j k')).toBe('a_b_c_d_e_f_g_h_i_j_k');
    expect(oscSegment('')).toBe('_');
  });

  it('takes a command at the address its transport state is sent to, whatever the name holds', () => {
    const names = new OscTransportNames();
    const transports = ['a+b', 'x#y/z', 'side screens', 'main'];
    for (const name of transports) names.add(name);
    for (const name of transports) {
      const [sent] = oscValuesOf({ what: 'transport', which: name, part: 'state', value: transportState });
      const part = /^\/transports\/([^/]+)\/playmode$/.exec(sent?.address ?? '')?.[1] ?? '';
      expect(oscCommandOf('/stagelink/hall', `/stagelink/hall/transport/${part}/play`, [], (segment) => names.nameOf(segment))).toEqual({ path: 'transport/play', body: { transport: name } });
    }
  });
});

describe('OSC commands', () => {
  const root = '/stagelink/hall';

  it('reads the fields as arguments in their documented order, 0 and 1 where a boolean is', () => {
    expect(oscCommandOf(root, `${root}/transport/main/gototrack`, ['Intro', 'Play'])).toEqual({ path: 'transport/gototrack', body: { transport: 'main', track: 'Intro', playmode: 'Play' } });
    expect(oscCommandOf(root, `${root}/transport/main/engaged`, [0])).toEqual({ path: 'transport/engaged', body: { transport: 'main', engaged: false } });
    expect(oscCommandOf(root, `${root}/transport/main/gototag`, ['CUE', 'GO 4', true])).toEqual({
      path: 'transport/gototag',
      body: { transport: 'main', tagType: 'CUE', tagValue: 'GO 4', allowGlobalJump: true },
    });
    expect(() => oscCommandOf(root, `${root}/transport/main/play`, [1])).toThrow(/play takes no arguments/);
  });

  it('reads one JSON argument as the fields by name, the transport coming from the address', () => {
    expect(oscCommandOf(root, `${root}/transport/side_screens/gototime`, ['{"id":"q7","time":12}'], (segment) => (segment === 'side_screens' ? 'side screens' : segment))).toEqual({
      path: 'transport/gototime',
      body: { id: 'q7', time: 12, transport: 'side screens' },
    });
    expect(() => oscCommandOf(root, `${root}/transport/main/play`, ['{"transport":"other"}'])).toThrow(/address names the transport/);
    expect(() => oscCommandOf(root, `${root}/transport/main/play`, ['{oops'])).toThrow(/not JSON/);
  });

  it('confirms failover only with an explicit confirm argument', () => {
    expect(oscCommandOf(root, `${root}/failover/failovermachine`, ['actor-1'])).toEqual({ path: 'failover/failovermachine', body: { machine: 'actor-1' } });
    expect(oscCommandOf(root, `${root}/failover/failovermachine`, ['actor-1', 0])).toEqual({ path: 'failover/failovermachine', body: { machine: 'actor-1' } });
    expect(oscCommandOf(root, `${root}/failover/failovermachine`, ['actor-1', 'confirm'])).toEqual({ path: 'failover/failovermachine', body: { machine: 'actor-1', confirm: true } });
    expect(oscCommandOf(root, `${root}/failover/failovermachine`, ['actor-1', 1])?.body).toEqual({ machine: 'actor-1', confirm: true });
  });

  it('leaves addresses outside its own commands alone, and refuses a malformed one of its own', () => {
    expect(oscCommandOf(root, '/stagelink/other/transport/main/play', [])).toBeUndefined();
    expect(oscCommandOf(root, `${root}/status`, [])).toBeUndefined();
    expect(() => oscCommandOf(root, `${root}/transport/main`, [])).toThrow(/is not a command/);
  });
});

describe('OSC options', () => {
  const base = { server: '10.0.0.5', mqtt: 'mqtt://127.0.0.1:1883' };

  it('reads receivers, the listening address and the allow list, allowing nobody by default', () => {
    const resolved = resolveOptions({ ...base, oscSend: ['10.0.0.20:53000', 'qlab.local:53000', '[fd00::7]:9000'], oscListen: '9000' });
    expect(resolved.oscSend).toEqual([
      { host: '10.0.0.20', port: 53000 },
      { host: 'qlab.local', port: 53000 },
      { host: 'fd00::7', port: 9000 },
    ]);
    expect(resolved.oscListen).toEqual({ address: '0.0.0.0', port: 9000 });
    expect(resolved.oscAllow).toEqual([]);
    expect(resolveOptions({ ...base, oscListen: '127.0.0.1:9001', oscAllow: ['10.0.0.0/24', '127.0.0.1'] })).toMatchObject({
      oscListen: { address: '127.0.0.1', port: 9001 },
      oscAllow: [
        { address: '10.0.0.0', prefix: 24, family: 'ipv4' },
        { address: '127.0.0.1', prefix: 32, family: 'ipv4' },
      ],
    });
    expect(resolveOptions({ ...base, oscAllow: ['fd00::7', 'fd00::/8'] }).oscAllow).toEqual([
      { address: 'fd00::7', prefix: 128, family: 'ipv6' },
      { address: 'fd00::', prefix: 8, family: 'ipv6' },
    ]);
    expect(() => resolveOptions({ ...base, oscSend: ['10.0.0.20'] })).toThrow(OptionError);
    expect(() => resolveOptions({ ...base, oscListen: 'qlab.local:9000' })).toThrow(/--osc-listen/);
    expect(() => resolveOptions({ ...base, oscAllow: ['10.0.0.0/33'] })).toThrow(/--osc-allow/);
  });

  it('takes the OSC and Home Assistant flags on the command line', () => {
    const command = parseCliArgs(['--server', 'a', '--mqtt', 'mqtt://b', '--osc-send', '10.0.0.20:53000,10.0.0.21:8000', '--osc-listen', '9000', '--osc-allow', '10.0.0.0/24']);
    expect(command).toMatchObject({ kind: 'run', options: { oscSend: ['10.0.0.20:53000', '10.0.0.21:8000'], oscListen: '9000', oscAllow: ['10.0.0.0/24'] } });
    // --ha-discovery takes its prefix only when one follows it.
    expect(parseCliArgs(['--ha-discovery', '--server', 'a', '--mqtt', 'mqtt://b'])).toMatchObject({ options: { haDiscovery: true } });
    expect(parseCliArgs(['--server', 'a', '--mqtt', 'mqtt://b', '--ha-discovery', 'ha', '--ha-discovery-mode', 'entity'])).toMatchObject({ options: { haDiscovery: 'ha', haDiscoveryMode: 'entity' } });
    expect(resolveOptions({ ...{ server: 'a', mqtt: 'mqtt://b' }, haDiscovery: true })).toMatchObject({ haDiscovery: 'homeassistant', haDiscoveryMode: 'device' });
    expect(() => resolveOptions({ server: 'a', mqtt: 'mqtt://b', haDiscovery: 'home/#' })).toThrow(/--ha-discovery/);
  });

  it('says a recurring problem once a period per source, with how often it happened meanwhile', () => {
    let now = 0;
    const said = new OnceAPeriod(60_000, 2, () => now);
    expect(said.note('a')).toEqual({ since: 1 });
    expect(said.note('a')).toBeUndefined();
    expect(said.note('a')).toBeUndefined();
    now = 60_000;
    expect(said.note('a')).toEqual({ since: 3 });
    expect(said.note('a')).toBeUndefined();
    // Past the limit the source said longest ago is forgotten: it is said again at once.
    said.note('b');
    said.note('c');
    expect(said.note('a')).toEqual({ since: 1 });
  });
});

describe('OSC out pace', () => {
  it('sends the first of many values of one address at once, then only the newest once the period has passed', async () => {
    const PERIOD_MS = 300;
    const receiver = createSocket('udp4');
    receiver.bind(0, '127.0.0.1');
    await once(receiver, 'listening');
    const fps: { value: unknown; at: number }[] = [];
    let heartbeats = 0;
    receiver.on('message', (packet) => {
      const decoded = decode(packet) as { address: string; args: { value: unknown }[] };
      if (decoded.address === '/stagelink/pace/bridge') heartbeats++;
      if (decoded.address === '/stagelink/pace/machines/node-a/fps') fps.push({ value: decoded.args[0]?.value, at: performance.now() });
    });
    const out = new OscOut([{ host: '127.0.0.1', port: receiver.address().port }], 'pace', PERIOD_MS, silentLog);
    try {
      // The first heartbeat waits for the sending socket to bind: once it is in, the first value is not held up
      // by that, and the gap the receiver sees is the pace's own.
      await expect.poll(() => heartbeats, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(1);
      for (let value = 0; value < 50; value++) out.state({ what: 'machine', which: 'node-a', part: 'fps', value: { value, average: value, alert: 'ok' } });
      await expect.poll(() => fps.length, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(2);
      expect(fps.slice(0, 2).map(({ value }) => value)).toEqual([0, 49]);
      // The newest waited for the period (less a little for the clocks of sender and receiver to differ).
      expect((fps[1]?.at ?? 0) - (fps[0]?.at ?? 0)).toBeGreaterThanOrEqual(PERIOD_MS - 30);
    } finally {
      await out.close();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});

describe('OSC out to a broadcast address', () => {
  it('sends to a broadcast address, as to a panel on every tablet of the show network', async () => {
    const receiver = createSocket('udp4');
    receiver.bind(0, '0.0.0.0');
    await once(receiver, 'listening');
    const heard: string[] = [];
    receiver.on('message', (packet) => heard.push((decode(packet) as { address: string }).address));
    const problems: string[] = [];
    const log = { ...silentLog, warn: (event: string) => problems.push(event) };
    const out = new OscOut([{ host: '127.255.255.255', port: receiver.address().port }], 'wide', 100, log);
    try {
      await expect.poll(() => heard, { timeout: 5000, interval: 20 }).toContain('/stagelink/wide/bridge');
      expect(problems).toEqual([]);
    } finally {
      await out.close();
      receiver.close();
    }
  });
});

describe('OSC out to a name, such as a console\'s .local name', () => {
  /** A resolver as mDNS answers for `console.local`: an IPv6 link-local address first, its IPv4 address when asked for one. */
  const both: HostLookup = (host, options) => {
    if (host !== 'console.local') return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
    return Promise.resolve(options.family === 4 ? { address: '127.0.0.1', family: 4 } : options.family === 6 ? { address: '::1', family: 6 } : { address: 'fe80::1', family: 6 });
  };
  const v6Only: HostLookup = (host, options) =>
    options.family === 4 ? Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })) : Promise.resolve({ address: 'fd00::7', family: 6 });

  it('looks a name up in the family the OSC socket sends from, and in any family when it has no such address', async () => {
    expect(await oscHostAddress('console.local', 4, both)).toEqual({ address: '127.0.0.1', family: 4 });
    expect(await oscHostAddress('console.local', 6, both)).toEqual({ address: '::1', family: 6 });
    expect(await oscHostAddress('panel.local', 4, v6Only)).toEqual({ address: 'fd00::7', family: 6 });
    await expect(oscHostAddress('nowhere.local', 4, both)).rejects.toThrow(/ENOTFOUND nowhere\.local/);
  });

  it('sends to a .local console on IPv4 when its name also has an IPv6 address', async () => {
    const receiver = createSocket('udp4');
    receiver.bind(0, '127.0.0.1');
    await once(receiver, 'listening');
    const heard: string[] = [];
    receiver.on('message', (packet) => heard.push((decode(packet) as { address: string }).address));
    const problems: string[] = [];
    const log = { ...silentLog, warn: (event: string, fields?: Record<string, unknown>) => problems.push(`${event} ${JSON.stringify(fields)}`) };
    const out = new OscOut([{ host: 'console.local', port: receiver.address().port }], 'named', 100, log, { family: 4, lookUp: both });
    try {
      await expect.poll(() => heard, { timeout: 5000, interval: 20 }).toContain('/stagelink/named/bridge');
      expect(problems).toEqual([]);
    } finally {
      await out.close();
      receiver.close();
    }
  });
});

describe.skipIf(SKIP)('OSC out to oscdump', () => {
  const PREFIX = 'test/osc';
  const ROOT = '/stagelink/osc';
  const FPS_HZ = 4;
  let venue: TestVenue;
  let bridge: Bridge;
  let dump: OscDump;

  beforeAll(async () => {
    venue = await startVenue();
    dump = await OscDump.start();
    bridge = await venue.startBridge(PREFIX, { fpsHz: FPS_HZ, oscSend: [`127.0.0.1:${dump.port}`] });
  });

  afterAll(async () => {
    await bridge?.close();
    await dump?.close();
    await venue?.close();
  });

  const at = (address: string) => (message: DumpedMessage) => message.address === `${ROOT}${address}`;
  const machines = () => venue.session.sim.machines();

  it('says the bridge is online every second, and reads each machine FPS as a float with its stale mark', async () => {
    const heartbeat = await dump.waitFor(at('/bridge'), 10_000, 0, 'the heartbeat');
    expect(heartbeat).toMatchObject({ types: 's', values: ['online'] });
    for (const { hostname } of machines()) {
      const fps = await dump.waitFor(at(`/machines/${hostname}/fps`), 15_000, 0, `FPS of ${hostname}`);
      expect(fps.types).toBe('f');
      expect(fps.values[0]).toBeGreaterThan(0);
      const mark = await dump.waitFor(at(`/machines/${hostname}/fps/stale`), 5000, dump.messages.indexOf(fps), `the stale mark of ${hostname}'s FPS`);
      expect(mark).toMatchObject({ types: 'i', values: [0] });
    }
    const health = await dump.waitFor(at('/session/health'), 10_000, 0, 'session health');
    expect(health.types).toBe('s');
    const beats = dump.messages.filter(at('/bridge')).length;
    await dump.waitFor(at('/bridge'), 5000, dump.messages.length, 'the next heartbeat');
    expect(dump.messages.filter(at('/bridge')).length).toBeGreaterThan(beats);
  });

  it('reads the transports and their show clocks with OSC 1.0 types', async () => {
    const playmode = await dump.waitFor(at('/transports/main/playmode'), 10_000, 0, "main's playmode");
    expect(playmode.types).toBe('s');
    expect((await dump.waitFor(at('/transports/main/playing'), 5000, 0, "main's playing")).types).toBe('i');
    expect((await dump.waitFor(at('/transports/side_screens/playmode'), 5000, 0, 'a transport whose name has a space')).types).toBe('s');
    const time = await dump.waitFor(at('/transports/main/time'), 15_000, 0, "main's clock");
    expect(time.types).toBe('f');
    expect(time.values[0]).toBeGreaterThanOrEqual(0);
    for (const name of ['section', 'section_remaining', 'cue_next', 'track', 'time/stale']) await dump.waitFor(at(`/transports/main/${name}`), 5000, 0, `main's ${name}`);
    expect(dump.messages.find(at('/transports/main/section'))?.types).toBe('i');
    expect(dump.messages.find(at('/transports/main/section_remaining'))?.types).toBe('f');
    expect(dump.messages.find(at('/transports/main/cue_next'))?.types).toBe('s');
  });

  it("marks one machine's FPS stale when its values stop, and clears the mark when they come back", async () => {
    const quiet = machines().find((machine) => machine.role !== 'director')?.hostname as string;
    const pattern = `findRemoteMonitor("${quiet}:`;
    const since = dump.messages.length;
    await simControl(venue.session.sim.mediaServer.url, { action: 'silentLive', pattern, on: true });
    try {
      await dump.waitFor((entry) => at(`/machines/${quiet}/fps/stale`)(entry) && entry.values[0] === 1, STALE_BOUND_MS, since, `FPS of ${quiet} marked stale`);
    } finally {
      await simControl(venue.session.sim.mediaServer.url, { action: 'silentLive', pattern, on: false });
    }
    const back = dump.messages.length;
    await dump.waitFor((entry) => at(`/machines/${quiet}/fps/stale`)(entry) && entry.values[0] === 0, STALE_BOUND_MS, back, `FPS of ${quiet} live again`);
  }, 60_000);

  it("marks the show clock's values stale when the playhead stands still while playing, and clears the marks", async () => {
    const director = new MediaServer({ host: venue.session.sim.mediaServer.url, hosts: venue.session.hosts });
    try {
      await director.transport.play({ name: 'main' });
    } finally {
      await director.close();
    }
    const playing = dump.messages.length;
    await dump.waitFor((entry) => at('/transports/main/playing')(entry) && entry.values[0] === 1, 10_000, playing, 'main playing');
    await dump.waitFor((entry) => at('/transports/main/time/stale')(entry) && entry.values[0] === 0, 10_000, playing, "main's clock live");
    const since = dump.messages.length;
    // Every live transport object, in either dialect's naming: the playheads freeze while the stream stays up.
    await simControl(venue.session.sim.mediaServer.url, { action: 'silentLive', pattern: 'transportmanager', on: true });
    let mark: DumpedMessage;
    try {
      mark = await dump.waitFor((entry) => at('/transports/main/time/stale')(entry) && entry.values[0] === 1, STALE_BOUND_MS, since, "main's clock marked stale");
      await dump.waitFor((entry) => at('/transports/main/section_remaining/stale')(entry) && entry.values[0] === 1, 5000, since, 'the section time marked stale with it');
    } finally {
      await simControl(venue.session.sim.mediaServer.url, { action: 'silentLive', pattern: 'transportmanager', on: false });
    }
    await dump.waitFor((entry) => at('/transports/main/time/stale')(entry) && entry.values[0] === 0, STALE_BOUND_MS, dump.messages.indexOf(mark) + 1, "main's clock live again");
  }, 60_000);

  it('says offline once when the bridge stops', async () => {
    const since = dump.messages.length;
    await bridge.close();
    const last = await dump.waitFor((entry) => at('/bridge')(entry) && entry.values[0] === 'offline', 5000, since, 'offline');
    expect(last.types).toBe('s');
  });
});

describe.skipIf(SKIP)('OSC commands from oscsend and from a sender of our own', () => {
  const PREFIX = 'test/oscin';
  const ROOT = '/stagelink/oscin';
  let venue: TestVenue;
  let bridge: Bridge;
  let port: number;
  let peer: OscPeer;

  beforeAll(async () => {
    venue = await startVenue();
    port = await freeUdpPort();
    bridge = await venue.startBridge(PREFIX, { oscListen: `127.0.0.1:${port}`, oscAllow: ['127.0.0.1'] });
    peer = await OscPeer.bind('127.0.0.1');
    // The listener is up once it answers.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const since = peer.replies.length;
      await peer.send(port, message(`${ROOT}/transport/main/nosuchcommand`));
      const answered = await peer.waitForReply((reply) => reply.address === `${ROOT}/result`, 2000, since).then(() => true, () => false);
      if (answered) break;
      if (Date.now() > deadline) throw new Error('The bridge did not answer OSC within 20 s.');
    }
  });

  afterAll(async () => {
    await peer?.close();
    await bridge?.close();
    await venue?.close();
  });

  const plays = (since: number) => venue.session.cuesSince(since).filter((request) => request.path === '/api/session/transport/play').length;
  const cues = (since: number) => venue.session.cuesSince(since).length;
  const result = (id?: string) => (reply: { address: string; args: unknown[] }) => reply.address === `${ROOT}/result` && (id === undefined || reply.args[0] === id);
  /** Waits for `count` cues to land, then a while longer: a second landing would show by then. */
  async function landsExactly(since: number, count: (since: number) => number, expected: number): Promise<void> {
    await expect.poll(() => count(since), { timeout: 10_000, interval: 50 }).toBe(expected);
    await delay(2000);
    expect(count(since)).toBe(expected);
  }

  it('fires a cue sent by oscsend exactly once', async () => {
    const since = venue.session.requests.length;
    oscsend(port, `${ROOT}/transport/main/play`);
    await landsExactly(since, plays, 1);
  });

  it('fires a cue with its arguments in order, and answers the sender with its id', async () => {
    const since = venue.session.requests.length;
    const before = peer.replies.length;
    await peer.send(port, message(`${ROOT}/transport/main/gotonexttrack`, { type: 's', value: '{"id":"osc-next-1"}' }));
    const reply = await peer.waitForReply(result('osc-next-1'), 10_000, before);
    expect(reply.args).toEqual(['osc-next-1', 1, '']);
    await landsExactly(since, (from) => venue.session.cuesSince(from).filter((request) => request.path === '/api/session/transport/gotonexttrack').length, 1);
    const refused = peer.replies.length;
    await peer.send(port, message(`${ROOT}/transport/main/gototrack`, { type: 's', value: 'Intro' }, { type: 's', value: 'Play' }, { type: 'i', value: 3 }));
    const tooMany = await peer.waitForReply(result(), 10_000, refused);
    expect(tooMany.args).toEqual(['', 0, expect.stringMatching(/gototrack takes at most 2 arguments: track, playmode/) as string]);
  });

  it('refuses failover without an explicit confirm, and sends nothing', async () => {
    const since = venue.session.requests.length;
    const before = peer.replies.length;
    const actor = venue.session.sim.machines().find((machine) => machine.role === 'actor')?.hostname as string;
    await peer.send(port, message(`${ROOT}/failover/failovermachine`, { type: 's', value: actor }, { type: 'i', value: 0 }));
    const reply = await peer.waitForReply(result(), 10_000, before);
    expect(reply.args).toEqual(['', 0, expect.stringMatching(/confirm/) as string]);
    expect(cues(since)).toBe(0);
  });

  it('hears nothing from a sender outside the allow list, and answers it nothing', async () => {
    const stranger = await OscPeer.bind('127.0.0.2');
    try {
      const since = venue.session.requests.length;
      const refusedBefore = bridge.oscCounts?.refused ?? 0;
      await stranger.send(port, message(`${ROOT}/transport/main/play`));
      await expect.poll(() => bridge.oscCounts?.refused, { timeout: 10_000 }).toBe(refusedBefore + 1);
      await delay(2000);
      expect(stranger.replies).toEqual([]);
      expect(cues(since)).toBe(0);
    } finally {
      await stranger.close();
    }
  });

  it('refuses a bundle whose timetag is older than --max-command-age, and sends nothing', async () => {
    const since = venue.session.requests.length;
    const before = peer.replies.length;
    await peer.send(port, bundle(Date.now() - 10_000, message(`${ROOT}/transport/main/play`, { type: 's', value: '{"id":"old-bundle"}' })));
    const reply = await peer.waitForReply(result('old-bundle'), 10_000, before);
    expect(reply.args).toEqual(['old-bundle', 0, expect.stringMatching(/older than 2000 ms/) as string]);
    expect(cues(since)).toBe(0);
  });

  it('drops a copy of a timed bundle: the cue lands once and is answered once', async () => {
    const since = venue.session.requests.length;
    const before = peer.replies.length;
    const duplicatesBefore = bridge.oscCounts?.duplicates ?? 0;
    const packet = encode(bundle(Date.now(), message(`${ROOT}/transport/main/play`)));
    await peer.send(port, packet);
    await peer.send(port, packet);
    await peer.waitForReply(result(), 10_000, before);
    await expect.poll(() => bridge.oscCounts?.duplicates, { timeout: 10_000 }).toBe(duplicatesBefore + 1);
    await landsExactly(since, plays, 1);
    expect(peer.replies.slice(before).filter(result())).toHaveLength(1);
  });

  it('counts 1,000 random and damaged packets as bad, sends no cue for them, and goes on taking commands', async () => {
    const since = venue.session.requests.length;
    const badBefore = bridge.oscCounts?.bad ?? 0;
    const valid = encode(message(`${ROOT}/transport/main/zzzz`, { type: 's', value: 'x' }, { type: 'i', value: 1 }));
    for (let index = 0; index < 1000; index++) {
      let packet: Buffer;
      if (index % 3 === 0) packet = randomBytes(1 + (index % 200));
      else if (index % 3 === 1) packet = valid.subarray(0, index % valid.length);
      else {
        packet = Buffer.from(valid);
        const at = index % packet.length;
        packet[at] = (packet[at] ?? 0) ^ (1 << (index % 8));
      }
      await peer.send(port, packet);
      // Paced as a busy sender, not a flood: on a loaded machine a burst overflows the receive buffer, and UDP drops.
      if (index % 10 === 0) await delay(5);
    }
    await expect.poll(() => (bridge.oscCounts?.bad ?? 0) - badBefore, { timeout: 10_000 }).toBeGreaterThan(300);
    expect(cues(since)).toBe(0);
    const before = peer.replies.length;
    await peer.send(port, message(`${ROOT}/transport/main/play`, { type: 's', value: '{"id":"after-fuzz"}' }));
    expect((await peer.waitForReply(result('after-fuzz'), 10_000, before)).args).toEqual(['after-fuzz', 1, '']);
  });
});

describe.skipIf(SKIP)('OSC commands that repeat', () => {
  const PREFIX = 'test/oscrepeat';
  const ROOT = '/stagelink/oscrepeat';
  /** A short age, so the id window (twice the age: 2 s) passes in a test; at the default 2 s it is 4 s. */
  const MAX_COMMAND_AGE_MS = 1000;
  let venue: TestVenue;
  let bridge: Bridge;
  let port: number;
  let peer: OscPeer;

  beforeAll(async () => {
    venue = await startVenue();
    port = await freeUdpPort();
    bridge = await venue.startBridge(PREFIX, { oscListen: `127.0.0.1:${port}`, oscAllow: ['127.0.0.1'], maxCommandAgeMs: MAX_COMMAND_AGE_MS });
    peer = await OscPeer.bind('127.0.0.1');
    const deadline = Date.now() + 20_000;
    for (;;) {
      const since = peer.replies.length;
      await peer.send(port, message(`${ROOT}/transport/main/nosuchcommand`));
      const answered = await peer.waitForReply((reply) => reply.address === `${ROOT}/result`, 2000, since).then(() => true, () => false);
      if (answered) break;
      if (Date.now() > deadline) throw new Error('The bridge did not answer OSC within 20 s.');
    }
  });

  afterAll(async () => {
    await peer?.close();
    await bridge?.close();
    await venue?.close();
  });

  const path = '/api/session/transport/gotonexttrack';
  const nexts = (since: number) => venue.session.cuesSince(since).filter((request) => request.path === path).length;
  const result = (id?: string) => (reply: { address: string; args: unknown[] }) => reply.address === `${ROOT}/result` && (id === undefined || reply.args[0] === id);
  const cue = (id: string) => message(`${ROOT}/transport/main/gotonexttrack`, { type: 's', value: JSON.stringify({ id }) });

  it('runs a fixed id pressed again once the window has passed, as a QLab cue fired twice', async () => {
    const id = `go-12-${Date.now()}`;
    const since = venue.session.requests.length;
    const before = peer.replies.length;
    await peer.send(port, cue(id));
    expect((await peer.waitForReply(result(id), 10_000, before)).args).toEqual([id, 1, '']);
    await expect.poll(() => nexts(since), { timeout: 10_000, interval: 50 }).toBe(1);
    await delay(2 * MAX_COMMAND_AGE_MS + 500);
    const again = peer.replies.length;
    await peer.send(port, cue(id));
    expect((await peer.waitForReply(result(id), 10_000, again)).args).toEqual([id, 1, '']);
    await expect.poll(() => nexts(since), { timeout: 10_000, interval: 50 }).toBe(2);
  });

  it('runs two copies 100 ms apart once, and answers the copy as a duplicate, not a success', async () => {
    const id = `go-13-${Date.now()}`;
    const since = venue.session.requests.length;
    const before = peer.replies.length;
    await peer.send(port, cue(id));
    await delay(100);
    await peer.send(port, cue(id));
    await expect.poll(() => peer.replies.slice(before).filter(result(id)).length, { timeout: 10_000, interval: 50 }).toBe(2);
    const answers = peer.replies.slice(before).filter(result(id)).map((reply) => reply.args);
    expect(answers).toContainEqual([id, 1, '']);
    expect(answers).toContainEqual([id, 0, expect.stringMatching(/copy of command .* was not run/) as string]);
    await delay(1000);
    expect(nexts(since)).toBe(1);
  });

  it('runs a bundle whose timetag is all zeros, as "now"', async () => {
    const id = `zero-${Date.now()}`;
    const since = venue.session.requests.length;
    const before = peer.replies.length;
    const packet = encode(bundle(0, cue(id)));
    // node-osc writes "immediately" (0 s, fraction 1): many senders write all zeros.
    packet.fill(0, 8, 16);
    await peer.send(port, packet);
    expect((await peer.waitForReply(result(id), 10_000, before)).args).toEqual([id, 1, '']);
    await expect.poll(() => nexts(since), { timeout: 10_000, interval: 50 }).toBe(1);
  });
});
