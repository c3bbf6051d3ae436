import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { MediaServer } from '@stagelink/core';
import { startMosquitto, MOSQUITTO_MISSING, type Mosquitto } from '@stagelink/bridge/testing';
import { startSimulator } from '@stagelink/simulator';
import { connectAsync } from 'mqtt';
import { millis, perSecond } from '../harness/format.js';
import type { ChildMessage, ConsumersConfig, ParentMessage } from '../harness/fanout-consumers.js';
import { processUsage } from '../harness/process-usage.js';
import { atMost, notRun, type Benchmark, type ResultRow } from '../harness/report.js';
import { median, p99 } from '../harness/stats.js';
import { stopProcess } from '../harness/stop-process.js';
import { fpsValueAge, startVenueDirector, type VenueDirector } from '../harness/venue-director.js';

const MACHINES = 20;
const FPS_HZ = 4;
const POLL_MS = 2000;
const SUBSCRIBERS = 500;
const PROCESSES = 4;
/** Each side warms up (connections, subscriptions, JIT) before it is measured over the window. */
const TIMING = { warmUpMs: 3000, windowMs: 10_000 };
const CUES = 150;
const P99_TARGET_MS = 100;
const PREFIX = 'stagelink/venue';

const BRIDGE_CLI = fileURLToPath(new URL('cli.mjs', import.meta.resolve('@stagelink/bridge')));
const CONSUMERS = fileURLToPath(new URL('../harness/fanout-consumers.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

interface Window {
  fpsPerSecond: number;
  healthPerSecond: number;
  latencies: number[];
  directorCpuMsPerSecond: number;
  sockets: number;
  subscriptions: number;
  healthReadsPerSecond: number;
  bridge?: { cpuMsPerSecond: number; rssMiB: number };
  broker?: { cpuMsPerSecond: number; rssMiB: number };
  /** One more subscriber, in this lightly loaded process: what the broker and bridge add without a busy consumer. */
  probe?: number[];
}

export const bridgeFanout: Benchmark = {
  id: 'bridge-fanout',
  name: 'bridge fan-out',
  subject: `${SUBSCRIBERS} MQTT subscribers (${PROCESSES} processes) of one bridge: ${MACHINES} machines' FPS at ${FPS_HZ} Hz, health every ${POLL_MS / 1000} s`,
  baseline: `${SUBSCRIBERS} core clients connected to the director directly, each subscribing the same FPS and polling health`,
  async run(log) {
    if (MOSQUITTO_MISSING) return { rows: [notRun('all', `p99 <= ${P99_TARGET_MS} ms`, MOSQUITTO_MISSING)], details: {} };
    const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
    const director = await startVenueDirector(sim.mediaServer.url, MACHINES);
    const broker = await startMosquitto();
    const bridge = startBridgeProcess(director, broker);
    try {
      log(`bridged: ${SUBSCRIBERS} subscribers in ${PROCESSES} processes, ${TIMING.warmUpMs / 1000} s warm-up, ${TIMING.windowMs / 1000} s window`);
      const bridged = await measure(director, { mode: 'mqtt', broker: broker.url, prefix: PREFIX, qos: 1 }, { bridge, broker });
      log('bridged again, the subscribers at QoS 0 (no acknowledgement per message)');
      const bridgedQos0 = await measure(director, { mode: 'mqtt', broker: broker.url, prefix: PREFIX, qos: 0 }, { bridge, broker });
      log('cue latency: through the broker and the bridge, and a direct core call');
      const cues = await cueLatency(director, broker);
      log('cue latency again, the broker writing every message at once (set_tcp_nodelay true)');
      const noDelayBroker = await startMosquitto({ tcpNoDelay: true });
      const noDelayBridge = startBridgeProcess(director, noDelayBroker);
      let noDelayCues: CueTimes;
      try {
        await delay(1500);
        noDelayCues = await cueLatency(director, noDelayBroker);
      } finally {
        await stopProcess(noDelayBridge);
        await noDelayBroker.close();
      }
      log(`direct: ${SUBSCRIBERS} core clients in ${PROCESSES} processes`);
      // The bridge stays up, holding its one socket and poller: the director's counts below subtract it.
      const direct = await measure(director, { mode: 'direct', director: director.url, hostnames: director.hostnames, fpsIntervalMs: 1000 / FPS_HZ, pollIntervalMs: POLL_MS }, {});
      return { rows: rows(bridged, bridgedQos0, direct, cues, noDelayCues), details: details(bridged, bridgedQos0, direct, cues, noDelayCues) };
    } finally {
      await stopProcess(bridge);
      await broker.close();
      await director.close();
      await sim.close();
    }
  },
};

function startBridgeProcess(director: VenueDirector, broker: Mosquitto): ChildProcess {
  const args = ['--server', director.url, '--mqtt', broker.url, '--prefix', PREFIX, '--fps-hz', String(FPS_HZ), '--poll-interval', String(POLL_MS), '--log-format', 'json'];
  const bridge = fork(BRIDGE_CLI, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  bridge.stderr?.resume();
  return bridge;
}

async function measure(director: VenueDirector, config: Omit<ConsumersConfig, 'count'>, watched: { bridge?: ChildProcess; broker?: Mosquitto }): Promise<Window> {
  const fleets = await Promise.all(Array.from({ length: PROCESSES }, (_, index) => startFleet({ ...config, count: Math.floor(SUBSCRIBERS / PROCESSES) + (index < SUBSCRIBERS % PROCESSES ? 1 : 0) })));
  const probe = config.mode === 'mqtt' ? await startProbe(config) : undefined;
  try {
    await delay(TIMING.warmUpMs);
    const usage = (pid: number | undefined) => (pid === undefined ? undefined : processUsage(pid));
    const before = { director: director.stats(), cpu: process.cpuUsage(), bridge: usage(watched.bridge?.pid), broker: usage(watched.broker?.pid), at: performance.now() };
    for (const fleet of fleets) fleet.send({ type: 'record' });
    probe?.record();
    await delay(TIMING.windowMs);
    const probeLatencies = probe?.stop();
    const reports = await Promise.all(fleets.map((fleet) => fleet.report()));
    const seconds = (performance.now() - before.at) / 1000;
    const after = { director: director.stats(), cpu: process.cpuUsage(before.cpu), bridge: usage(watched.bridge?.pid), broker: usage(watched.broker?.pid) };
    const rate = (a?: { cpuMs: number }, b?: { cpuMs: number; rssMiB: number }) => (a && b ? { cpuMsPerSecond: (b.cpuMs - a.cpuMs) / seconds, rssMiB: b.rssMiB } : undefined);
    const bridgeUsage = rate(before.bridge, after.bridge);
    const brokerUsage = rate(before.broker, after.broker);
    return {
      fpsPerSecond: reports.reduce((sum, report) => sum + report.fpsValues, 0) / seconds,
      healthPerSecond: reports.reduce((sum, report) => sum + report.healthMessages, 0) / seconds,
      latencies: reports.flatMap((report) => report.latencies),
      directorCpuMsPerSecond: (after.cpu.user + after.cpu.system) / 1000 / seconds,
      sockets: after.director.sockets,
      subscriptions: after.director.subscriptions,
      healthReadsPerSecond: (after.director.healthReads - before.director.healthReads) / seconds,
      ...(bridgeUsage ? { bridge: bridgeUsage } : {}),
      ...(brokerUsage ? { broker: brokerUsage } : {}),
      ...(probeLatencies ? { probe: probeLatencies } : {}),
    };
  } finally {
    await probe?.close();
    await Promise.all(fleets.map((fleet) => fleet.stop()));
  }
}

async function startProbe(config: Omit<ConsumersConfig, 'count'>): Promise<{ record(): void; stop(): number[]; close(): Promise<void> }> {
  const client = await connectAsync(config.broker as string, { protocolVersion: 5 });
  let latencies: number[] | undefined;
  client.on('message', (topic, payload) => {
    const body = JSON.parse(payload.toString('utf8')) as { value?: unknown; stale?: boolean };
    if (latencies && typeof body.value === 'number' && !body.stale) latencies.push(fpsValueAge(body.value, Date.now()));
  });
  await client.subscribeAsync(`${config.prefix}/machines/+/fps`, { qos: config.qos ?? 1 });
  return {
    record: () => (latencies = []),
    stop: () => {
      const recorded = latencies ?? [];
      latencies = undefined;
      return recorded;
    },
    close: () => client.endAsync(true),
  };
}

interface Fleet {
  send(message: ParentMessage): void;
  report(): Promise<{ fpsValues: number; healthMessages: number; latencies: number[] }>;
  stop(): Promise<void>;
}

async function startFleet(config: ConsumersConfig): Promise<Fleet> {
  const child = fork(CONSUMERS, [JSON.stringify(config)], { execArgv: ['--import', TSX], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = (type: ChildMessage['type']) =>
    new Promise<ChildMessage>((resolve, reject) => {
      const onMessage = (message: ChildMessage) => {
        if (message.type === 'error') reject(new Error(`consumer process: ${message.message}`));
        else if (message.type === type) resolve(message);
        else return;
        child.off('message', onMessage);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`consumer process exited with ${String(code)}`)));
    });
  await next('ready');
  return {
    send: (message) => void child.send(message),
    report: async () => {
      const answer = next('window');
      child.send({ type: 'report' } satisfies ParentMessage);
      const window = (await answer) as Extract<ChildMessage, { type: 'window' }>;
      return window;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.send({ type: 'stop' } satisfies ParentMessage);
      await Promise.race([exited, delay(5000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

interface CueTimes {
  broker: number[];
  direct: number[];
}

/**
 * From the moment a cue is asked for to the moment the director receives it: a desk publishing to the bridge's
 * command topic (QoS 1, with sentAt), against the same process calling core directly. Alternated, one at a time.
 */
async function cueLatency(director: VenueDirector, broker: Mosquitto): Promise<CueTimes> {
  const desk = await connectAsync(broker.url, { protocolVersion: 5 });
  const core = new MediaServer({ host: director.url });
  const times: CueTimes = { broker: [], direct: [] };
  let arrived: ((at: number) => void) | undefined;
  director.onRequest = (method, path, at) => {
    if (method === 'POST' && path === '/api/session/transport/play') arrived?.(at);
  };
  const timed = async (send: () => Promise<unknown>): Promise<number> => {
    const started = performance.now();
    const received = new Promise<number>((resolve) => (arrived = resolve));
    await send();
    const at = await Promise.race([received, delay(5000).then(() => Number.NaN)]);
    arrived = undefined;
    return at - started;
  };
  try {
    await core.transport.play({ name: 'main' });
    for (let cue = 0; cue < CUES; cue++) {
      const body = () => JSON.stringify({ transport: 'main', id: `bench-${cue}-${Date.now()}`, sentAt: Date.now() });
      times.broker.push(await timed(() => desk.publishAsync(`${PREFIX}/cmd/transport/play`, body(), { qos: 1 })));
      times.direct.push(await timed(() => core.transport.play({ name: 'main' })));
      await delay(5);
    }
  } finally {
    director.onRequest = undefined;
    await desk.endAsync();
    await core.close();
  }
  return { broker: times.broker.filter(Number.isFinite), direct: times.direct.filter(Number.isFinite) };
}

function rows(bridged: Window, bridgedQos0: Window, direct: Window, cues: CueTimes, noDelayCues: CueTimes): ResultRow[] {
  // The bridge kept its socket and poller through the direct window: take them out of the director's counts.
  const directSockets = direct.sockets - bridged.sockets;
  const pollers = (window: Window) => Math.round(window.healthReadsPerSecond * (POLL_MS / 1000));
  const directPollers = pollers(direct) - pollers(bridged);
  const bridgedP99 = p99(bridged.latencies);
  // Latencies are whole milliseconds (see fpsValueAt): a direct p50 can be 0, which has no ratio.
  const ratio = (a: number, b: number) => (b > 0 ? { ratioLabel: 'bridged / direct', ratio: a / b } : {});
  const expected = SUBSCRIBERS * MACHINES * FPS_HZ;
  return [
    {
      case: 'director: live sockets, pollers',
      subject: `${bridged.sockets} socket, ${pollers(bridged)} poller`,
      baseline: `${directSockets} sockets, ${directPollers} pollers`,
      target: '1 socket, 1 poller',
      verdict: bridged.sockets === 1 && pollers(bridged) === 1 ? 'met' : 'missed',
      note: `${bridged.subscriptions} live subscriptions at the director against ${direct.subscriptions - bridged.subscriptions}; health reads ${bridged.healthReadsPerSecond.toFixed(1)}/s against ${(direct.healthReadsPerSecond - bridged.healthReadsPerSecond).toFixed(1)}/s`,
    },
    {
      case: 'FPS values delivered',
      subject: perSecond(bridged.fpsPerSecond, 'values'),
      baseline: perSecond(direct.fpsPerSecond, 'values'),
      ...ratio(bridged.fpsPerSecond, direct.fpsPerSecond),
      target: `every update (${perSecond(expected, 'values')})`,
      verdict: bridged.fpsPerSecond >= expected * 0.97 ? 'met' : 'missed',
      note: `health: ${perSecond(bridged.healthPerSecond, 'messages')} to the subscribers`,
    },
    { case: 'p50 delivery latency, QoS 1 subscribers', subject: millis(median(bridged.latencies)), baseline: millis(median(direct.latencies)), ...ratio(median(bridged.latencies), median(direct.latencies)), target: 'reported', verdict: 'reported', note: 'from the value change at the director to the consumer' },
    {
      case: 'p99 delivery latency, QoS 1 subscribers',
      subject: millis(bridgedP99),
      baseline: millis(p99(direct.latencies)),
      ...ratio(bridgedP99, p99(direct.latencies)),
      target: `<= ${P99_TARGET_MS} ms`,
      verdict: atMost(bridgedP99, P99_TARGET_MS),
      ...(bridged.probe?.length ? { note: `one more subscriber in the benchmark's own process: p50 ${millis(median(bridged.probe))}, p99 ${millis(p99(bridged.probe))}` } : {}),
    },
    {
      case: 'p50, p99 delivery latency, QoS 0 subscribers',
      subject: `${millis(median(bridgedQos0.latencies))}, ${millis(p99(bridgedQos0.latencies))}`,
      baseline: `${millis(median(direct.latencies))}, ${millis(p99(direct.latencies))}`,
      target: `p99 <= ${P99_TARGET_MS} ms`,
      verdict: atMost(p99(bridgedQos0.latencies), P99_TARGET_MS),
      note: `${perSecond(bridgedQos0.fpsPerSecond, 'values')}; Mosquitto ${Math.round(bridgedQos0.broker?.cpuMsPerSecond ?? Number.NaN)} ms/s${bridgedQos0.probe?.length ? `; the extra subscriber: p99 ${millis(p99(bridgedQos0.probe))}` : ''}`,
    },
    {
      case: 'director CPU',
      subject: `${Math.round(bridged.directorCpuMsPerSecond)} ms/s`,
      baseline: `${Math.round(direct.directorCpuMsPerSecond)} ms/s`,
      ...ratio(bridged.directorCpuMsPerSecond, direct.directorCpuMsPerSecond),
      target: 'reported',
      verdict: 'reported',
      note: 'the stand-in director and the simulator behind it, one process',
    },
    {
      case: 'bridge CPU and memory',
      subject: bridged.bridge ? `${Math.round(bridged.bridge.cpuMsPerSecond)} ms/s, ${Math.round(bridged.bridge.rssMiB)} MiB` : '-',
      baseline: '-',
      target: 'reported',
      verdict: 'reported',
      note: bridged.broker ? `Mosquitto: ${Math.round(bridged.broker.cpuMsPerSecond)} ms/s, ${Math.round(bridged.broker.rssMiB)} MiB` : '',
    },
    ...cueRows('Mosquitto defaults', cues, 'publish (QoS 1) to director receipt, against a direct core call'),
    ...cueRows('set_tcp_nodelay true', noDelayCues, 'the broker no longer holds a small packet back for the previous one to be acknowledged'),
  ];
}

function cueRows(broker: string, cues: CueTimes, note: string): ResultRow[] {
  const row = (name: string, statistic: (samples: number[]) => number): ResultRow => ({
    case: `cue latency ${name}, ${broker}`,
    subject: millis(statistic(cues.broker)),
    baseline: millis(statistic(cues.direct)),
    ratioLabel: 'broker / core',
    ratio: statistic(cues.broker) / statistic(cues.direct),
    target: 'reported',
    verdict: 'reported',
  });
  return [{ ...row('p50', median), note }, row('p99', p99)];
}

function details(bridged: Window, bridgedQos0: Window, direct: Window, cues: CueTimes, noDelayCues: CueTimes): Record<string, unknown> {
  const summary = ({ latencies, probe, ...window }: Window) => ({ ...window, ...(probe ? { probeP50Ms: median(probe), probeP99Ms: p99(probe) } : {}), deliveries: latencies.length, p50Ms: median(latencies), p99Ms: p99(latencies), maxMs: latencies.reduce((max, value) => Math.max(max, value), 0) });
  return {
    machines: MACHINES,
    fpsHz: FPS_HZ,
    pollMs: POLL_MS,
    subscribers: SUBSCRIBERS,
    processes: PROCESSES,
    windowMs: TIMING.windowMs,
    bridged: summary(bridged),
    bridgedQos0: summary(bridgedQos0),
    direct: summary(direct),
    cues: cueSummary(cues),
    cuesTcpNoDelay: cueSummary(noDelayCues),
  };
}

function cueSummary(cues: CueTimes): Record<string, number> {
  return { count: cues.broker.length, brokerP50Ms: median(cues.broker), brokerP99Ms: p99(cues.broker), directP50Ms: median(cues.direct), directP99Ms: p99(cues.direct) };
}
