import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { startMosquitto, MOSQUITTO_MISSING, type Mosquitto } from '@stagelink/bridge/testing';
import { startSimulator, type Simulator } from '@stagelink/simulator';
import { connectAsync, type MqttClient } from 'mqtt';
import { millis, perSecond } from '../harness/format.js';
import { processUsage, type ProcessUsage } from '../harness/process-usage.js';
import { atLeast, atMost, notRun, type Benchmark, type ResultRow } from '../harness/report.js';
import { median, p99 } from '../harness/stats.js';
import { stopProcess } from '../harness/stop-process.js';

const MACHINES = 20;
const FPS_HZ = 4;
const POLL_MS = 2000;
const SUBSCRIBERS = 500;
const PROCESSES = 4;
/** Subscribers warm up before the window; after it, summaries still on their way get this long to arrive. */
const TIMING = { warmUpMs: 3000, windowMs: 10_000, graceMs: 2000 };
const P99_TARGET_MS = 100;
const PREFIX = 'stagelink/venue';
const TOPIC = `${PREFIX}/summary`;

const BRIDGE_CLI = fileURLToPath(new URL('cli.mjs', import.meta.resolve('@stagelink/bridge')));
const TSX = import.meta.resolve('tsx');
/** Set in the subscriber processes this file forks: there it runs the subscribers instead of the benchmark. */
const FLEET_ENV = 'STAGELINK_BENCH_SUMMARY_FLEET';

interface FleetConfig {
  broker: string;
  count: number;
  qos: 0 | 1;
}

/**
 * When each subscriber first got each summary asked about (ms since the epoch, sub-ms), by subscriber then by
 * summary; null where it never came.
 */
type Receipts = (number | null)[][];

type ToFleet = { type: 'report'; keys: string[] } | { type: 'stop' };
type FromFleet = { type: 'ready' } | { type: 'report'; receipts: Receipts } | { type: 'error'; message: string };

interface Window {
  /** Summaries the bridge published in the window (as one subscriber in this process saw them). */
  published: number;
  /** Summaries delivered to the subscribers, each counted once per subscriber. */
  delivered: number;
  /** From the first receipt of a summary by any subscriber to each subscriber's: the broker's fan-out. */
  fanOutMs: number[];
  seconds: number;
  bridge?: { cpuMsPerSecond: number; rssMiB: number };
  broker?: { cpuMsPerSecond: number; rssMiB: number };
}

export const bridgeSummary: Benchmark = {
  id: 'bridge-summary',
  name: 'bridge summary',
  subject: `${SUBSCRIBERS} MQTT subscribers (${PROCESSES} processes) of the bridge's summary topic: ${MACHINES} machines' FPS at ${FPS_HZ} Hz and health in one message a tick`,
  baseline: 'none: the target is absolute (every summary delivered, p99 fan-out)',
  async run(log) {
    if (MOSQUITTO_MISSING) return { rows: [notRun('all', `p99 <= ${P99_TARGET_MS} ms`, MOSQUITTO_MISSING)], details: {} };
    const sim = await startSimulator({ scenario: 'venue', machines: MACHINES, host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
    const broker = await startMosquitto();
    const bridge = startBridgeProcess(sim, broker);
    try {
      log(`QoS 1: ${SUBSCRIBERS} subscribers in ${PROCESSES} processes, ${TIMING.warmUpMs / 1000} s warm-up, ${TIMING.windowMs / 1000} s window`);
      const qos1 = await measure(broker, bridge, 1);
      log('QoS 0: the same subscribers without an acknowledgement per message');
      const qos0 = await measure(broker, bridge, 0);
      return { rows: rows(qos1, qos0), details: { machines: MACHINES, fpsHz: FPS_HZ, subscribers: SUBSCRIBERS, processes: PROCESSES, windowMs: TIMING.windowMs, qos1: summarise(qos1), qos0: summarise(qos0) } };
    } finally {
      await stopProcess(bridge);
      await broker.close();
      await sim.close();
    }
  },
};

function startBridgeProcess(sim: Simulator, broker: Mosquitto): ChildProcess {
  const args = ['--server', sim.mediaServer.url, '--mqtt', broker.url, '--prefix', PREFIX, '--fps-hz', String(FPS_HZ), '--poll-interval', String(POLL_MS), '--log-format', 'json'];
  const bridge = fork(BRIDGE_CLI, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  bridge.stderr?.resume();
  return bridge;
}

async function measure(broker: Mosquitto, bridge: ChildProcess, qos: 0 | 1): Promise<Window> {
  const fleets = await Promise.all(Array.from({ length: PROCESSES }, (_, index) => startFleet({ broker: broker.url, qos, count: Math.floor(SUBSCRIBERS / PROCESSES) + (index < SUBSCRIBERS % PROCESSES ? 1 : 0) })));
  // The reference: which summaries the bridge published in the window, and when one subscriber here got each.
  const probe = await connectAsync(broker.url, { protocolVersion: 5 });
  const published = new Map<string, number>();
  let recording = false;
  probe.on('message', (_topic, payload) => {
    if (recording) published.set(keyOf(payload), now());
  });
  try {
    await probe.subscribeAsync(TOPIC, { qos: 1 });
    await delay(TIMING.warmUpMs);
    const usage = (pid: number | undefined) => (pid === undefined ? undefined : processUsage(pid));
    const before = { bridge: usage(bridge.pid), broker: usage(broker.pid), at: performance.now() };
    recording = true;
    await delay(TIMING.windowMs);
    recording = false;
    const seconds = (performance.now() - before.at) / 1000;
    const after = { bridge: usage(bridge.pid), broker: usage(broker.pid) };
    await delay(TIMING.graceMs);
    const keys = [...published.keys()];
    const reports = await Promise.all(fleets.map((fleet) => fleet.report(keys)));
    return { ...deliveries(keys, published, reports), seconds, ...cpu('bridge', before.bridge, after.bridge, seconds), ...cpu('broker', before.broker, after.broker, seconds) };
  } finally {
    await probe.endAsync(true);
    await Promise.all(fleets.map((fleet) => fleet.stop()));
  }
}

/** Per summary: its first receipt anywhere is the reference each other subscriber's receipt is timed from. */
function deliveries(keys: string[], published: Map<string, number>, reports: Receipts[]): Pick<Window, 'published' | 'delivered' | 'fanOutMs'> {
  const fanOutMs: number[] = [];
  let delivered = 0;
  keys.forEach((key, index) => {
    const receipts = reports.flatMap((report) => report.flatMap((subscriber) => subscriber[index] ?? []));
    const first = receipts.reduce((earliest, at) => Math.min(earliest, at), published.get(key) ?? Number.POSITIVE_INFINITY);
    delivered += receipts.length;
    for (const at of receipts) fanOutMs.push(at - first);
  });
  return { published: keys.length, delivered, fanOutMs };
}

function cpu(name: 'bridge' | 'broker', before: ProcessUsage | undefined, after: ProcessUsage | undefined, seconds: number): Partial<Pick<Window, 'bridge' | 'broker'>> {
  return before && after ? { [name]: { cpuMsPerSecond: (after.cpuMs - before.cpuMs) / seconds, rssMiB: after.rssMiB } } : {};
}

function rows(qos1: Window, qos0: Window): ResultRow[] {
  const expected = (window: Window) => window.published * SUBSCRIBERS;
  const share = (window: Window) => (expected(window) > 0 ? window.delivered / expected(window) : 0);
  const percent = (window: Window) => `${(share(window) * 100).toFixed(2)} %`;
  return [
    {
      case: 'summaries delivered, QoS 1 subscribers',
      subject: `${windowText(qos1)}: ${percent(qos1)}`,
      baseline: '-',
      target: 'every update',
      verdict: atLeast(share(qos1), 1),
      note: `${qos1.delivered.toLocaleString('en-US')} of ${expected(qos1).toLocaleString('en-US')} deliveries; ${perSecond(qos1.published / qos1.seconds, 'summaries')} published (at most ${FPS_HZ})`,
    },
    {
      case: 'p50, p99 fan-out latency, QoS 1 subscribers',
      subject: `${millis(median(qos1.fanOutMs))}, ${millis(p99(qos1.fanOutMs))}`,
      baseline: '-',
      target: `p99 <= ${P99_TARGET_MS} ms`,
      verdict: atMost(p99(qos1.fanOutMs), P99_TARGET_MS),
      note: "from a summary's first receipt by any subscriber to each subscriber's",
    },
    {
      case: 'QoS 0 subscribers: delivered, p50 and p99 fan-out',
      subject: `${percent(qos0)}, ${millis(median(qos0.fanOutMs))}, ${millis(p99(qos0.fanOutMs))}`,
      baseline: '-',
      target: 'reported',
      verdict: 'reported',
      note: `${qos0.delivered.toLocaleString('en-US')} of ${expected(qos0).toLocaleString('en-US')} deliveries`,
    },
    {
      case: 'bridge and broker CPU, QoS 1',
      subject: `bridge ${usageText(qos1.bridge)}, Mosquitto ${usageText(qos1.broker)}`,
      baseline: '-',
      target: 'reported',
      verdict: 'reported',
      note: `QoS 0: bridge ${usageText(qos0.bridge)}, Mosquitto ${usageText(qos0.broker)}`,
    },
  ];
}

function windowText(measured: Window): string {
  return `${measured.published} summaries in ${measured.seconds.toFixed(1)} s`;
}

function usageText(usage: { cpuMsPerSecond: number; rssMiB: number } | undefined): string {
  return usage ? `${Math.round(usage.cpuMsPerSecond)} ms/s, ${Math.round(usage.rssMiB)} MiB` : '-';
}

function summarise({ fanOutMs, ...window }: Window): Record<string, unknown> {
  return { ...window, fanOutP50Ms: median(fanOutMs), fanOutP99Ms: p99(fanOutMs), fanOutMaxMs: fanOutMs.reduce((max, value) => Math.max(max, value), 0) };
}

// ---- the subscriber processes -------------------------------------------------------------------------------

interface Fleet {
  report(keys: string[]): Promise<Receipts>;
  stop(): Promise<void>;
}

async function startFleet(config: FleetConfig): Promise<Fleet> {
  const child = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', TSX], env: { ...process.env, [FLEET_ENV]: JSON.stringify(config) }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T extends FromFleet['type']>(type: T) =>
    new Promise<Extract<FromFleet, { type: T }>>((resolve, reject) => {
      const onMessage = (message: FromFleet) => {
        if (message.type === 'error') reject(new Error(`subscriber process: ${message.message}`));
        else if (message.type === type) resolve(message as Extract<FromFleet, { type: T }>);
        else return;
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      const onExit = (code: number | null) => reject(new Error(`subscriber process exited with ${String(code)}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  await next('ready');
  return {
    report: async (keys) => {
      const answer = next('report');
      child.send({ type: 'report', keys } satisfies ToFleet);
      return (await answer).receipts;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.send({ type: 'stop' } satisfies ToFleet);
      await Promise.race([exited, delay(5000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

/** Wall-clock ms with sub-ms precision, comparable between the processes of this machine. */
function now(): number {
  return performance.timeOrigin + performance.now();
}

/** A summary's identity: each differs from the one before (the bridge publishes only a change), 20 FPS values with it. */
function keyOf(payload: Buffer): string {
  return createHash('sha1').update(payload).digest('base64');
}

/** A subscriber process: `count` clients of the summary topic, each noting when it first got every summary. */
async function runFleet(config: FleetConfig): Promise<void> {
  const send = (message: FromFleet): void => void process.send?.(message);
  const clients: MqttClient[] = [];
  const seen = Array.from({ length: config.count }, () => new Map<string, number>());
  try {
    for (const [index, received] of seen.entries()) {
      const client = await connectAsync(config.broker, { protocolVersion: 5, clean: true, reconnectPeriod: 1000, keepalive: 30 });
      client.on('message', (_topic, payload) => {
        const at = now();
        const key = keyOf(payload);
        if (!received.has(key)) received.set(key, at);
      });
      await client.subscribeAsync(TOPIC, { qos: config.qos });
      clients[index] = client;
    }
  } catch (error) {
    send({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
  process.on('message', (message: ToFleet) => {
    if (message.type === 'report') {
      send({ type: 'report', receipts: seen.map((received) => message.keys.map((key) => received.get(key) ?? null)) });
    } else {
      void Promise.all(clients.map((client) => client.endAsync(true))).finally(() => process.exit(0));
    }
  });
  send({ type: 'ready' });
}

if (process.env[FLEET_ENV]) void runFleet(JSON.parse(process.env[FLEET_ENV]) as FleetConfig);
