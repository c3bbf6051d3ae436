import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { MediaServer } from '@stagelink/core';
import { startMosquitto, MOSQUITTO_MISSING, type Mosquitto } from '@stagelink/bridge/testing';
import { connectAsync } from 'mqtt';
import type { ConsumersConfig } from '../harness/fanout-consumers.js';
import { startFleets, type FleetsWindow } from '../harness/fanout-fleets.js';
import { processUsage } from '../harness/process-usage.js';
import { notRun, type Benchmark } from '../harness/report.js';
import { stopProcess } from '../harness/stop-process.js';
import { sharedNow } from '../harness/value-matching.js';
import { startVenueSimulator, type VenueSimulator } from '../harness/venue-simulator.js';
import { fanoutDetails, fanoutRows, type CueTimes, type CurvePoint, type DirectorLoad, type FanoutRun } from './bridge-fanout-rows.js';

const MACHINES = 20;
const FPS_HZ = 4;
const POLL_MS = 2000;
/** Subscriber counts of the curve, each at QoS 1 and QoS 0; a shorter list from the environment, for trying it. */
const CURVE = curveCounts(process.env['STAGELINK_BENCH_FANOUT_CURVE'], [1, 10, 50, 100, 250, 500, 1000]);
const QOS_LEVELS = [1, 0] as const;
const MAX_PROCESSES = 4;
/** The direct baseline: this many core clients, each its own socket and poller at the director. */
const BASELINE_CONSUMERS = 500;
const WARM_UP_MS = 2000;
/** Values sent in the window may still arrive this long after it (longer where the broker queues). */
function drainMs(subscribers: number): number {
  return subscribers >= 500 ? 5000 : 3000;
}
const CUES = 150;
const PREFIX = 'stagelink/venue';

function curveCounts(given: string | undefined, all: number[]): number[] {
  const counts = (given ?? '').split(',').map(Number).filter((count) => Number.isInteger(count) && count > 0);
  return counts.length > 0 ? counts : all;
}

/** Long enough for a p99 at small counts, short at large ones so the whole curve stays within minutes. */
function windowMs(subscribers: number): number {
  if (subscribers === 1) return 20_000;
  return subscribers <= 100 ? 10_000 : subscribers <= 500 ? 6000 : 5000;
}

const BRIDGE_CLI = fileURLToPath(new URL('cli.mjs', import.meta.resolve('@stagelink/bridge')));

export const bridgeFanout: Benchmark = {
  id: 'bridge-fanout',
  name: 'bridge fan-out',
  subject: `MQTT subscribers (${CURVE.join(', ')}; up to ${MAX_PROCESSES} processes) of one bridge: ${MACHINES} machines' FPS at ${FPS_HZ} Hz, health every ${POLL_MS / 1000} s, from the simulator's venue director`,
  baseline: `${BASELINE_CONSUMERS} core clients connected to the director directly, each subscribing the same FPS and polling health`,
  async run(log) {
    if (MOSQUITTO_MISSING) return { rows: [notRun('all', 'curve and knee', MOSQUITTO_MISSING)], details: {} };
    const venue = await startVenueSimulator(MACHINES);
    const broker = await startMosquitto();
    const bridge = startBridgeProcess(venue, broker);
    try {
      await untilBridgeFeeds(venue);
      const points: CurvePoint[] = [];
      for (const qos of QOS_LEVELS) {
        for (const subscribers of CURVE) {
          log(`QoS ${qos}, ${subscribers} subscribers: ${windowMs(subscribers) / 1000} s window`);
          points.push(await curvePoint(venue, { bridge, broker }, subscribers, qos));
        }
      }
      log(`direct: ${BASELINE_CONSUMERS} core clients in ${MAX_PROCESSES} processes`);
      // The bridge stays up, holding its one socket and poller: the rows subtract it.
      const direct = await directLoad(venue);
      log('cue latency: through the broker and the bridge, and a direct core call');
      const cues = await cueLatency(venue, broker);
      log('cue latency again, the broker writing every message at once (set_tcp_nodelay true)');
      const noDelayCues = await withNoDelayBroker(venue, (noDelayBroker) => cueLatency(venue, noDelayBroker));
      const run: FanoutRun = { machines: MACHINES, fpsHz: FPS_HZ, pollMs: POLL_MS, points, direct, cues, noDelayCues };
      return { rows: fanoutRows(run), details: fanoutDetails(run) };
    } finally {
      await stopProcess(bridge);
      await broker.close();
      await venue.close();
    }
  },
};

/**
 * As systemd would run it. `--fps-deadband 0`: every FPS value the director sends is an update to pass on, so
 * the share delivered counts against the director's own sends.
 */
function startBridgeProcess(venue: VenueSimulator, broker: Mosquitto): ChildProcess {
  const args = ['--server', venue.url, '--mqtt', broker.url, '--prefix', PREFIX, '--fps-hz', String(FPS_HZ), '--fps-deadband', '0', '--poll-interval', String(POLL_MS), '--log-format', 'json'];
  const bridge = fork(BRIDGE_CLI, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  bridge.stderr?.resume();
  return bridge;
}

/** Until the bridge has subscribed every machine's FPS and values flow to it. */
async function untilBridgeFeeds(venue: VenueSimulator): Promise<void> {
  const deadline = performance.now() + 20_000;
  while (performance.now() < deadline) {
    const sent = venue.sentSince(sharedNow() - 1000);
    if (venue.hostnames.every((hostname) => (sent[hostname]?.at.length ?? 0) > 0)) return;
    await delay(200);
  }
  throw new Error('the bridge did not subscribe every machine\'s FPS within 20 s');
}

interface Watched {
  bridge: ChildProcess;
  broker: Mosquitto;
}

async function curvePoint(venue: VenueSimulator, watched: Watched, subscribers: number, qos: 0 | 1): Promise<CurvePoint> {
  const config: Omit<ConsumersConfig, 'count'> = { mode: 'mqtt', broker: watched.broker.url, prefix: PREFIX, qos };
  try {
    const window = await measureWindow(venue, config, subscribers, { warmUpMs: WARM_UP_MS, windowMs: windowMs(subscribers) }, watched);
    return { subscribers, qos, ...window };
  } catch (error) {
    return { subscribers, qos, failed: error instanceof Error ? error.message : String(error) };
  }
}

/** The fleets' window, and what it cost the director, the bridge and the broker. */
async function measureWindow(venue: VenueSimulator, config: Omit<ConsumersConfig, 'count'>, count: number, timing: { warmUpMs: number; windowMs: number }, watched?: Watched) {
  const fleets = await startFleets(config, count, Math.min(MAX_PROCESSES, count));
  try {
    await delay(timing.warmUpMs);
    const recordedFrom = sharedNow();
    fleets.record();
    // Children start keeping values a little before the window, so nothing sent in it arrives unkept.
    await delay(300);
    const usage = (pid: number | undefined) => (pid === undefined ? undefined : processUsage(pid));
    const from = sharedNow();
    const before = { stats: venue.stats(), cpu: process.cpuUsage(), bridge: usage(watched?.bridge.pid), broker: usage(watched?.broker.pid) };
    await delay(timing.windowMs);
    const to = sharedNow();
    const after = { stats: venue.stats(), cpu: process.cpuUsage(before.cpu), bridge: usage(watched?.bridge.pid), broker: usage(watched?.broker.pid) };
    await delay(drainMs(count));
    // Every send since the consumers started keeping values: a value sent just before the window is matched to its
    // own send and left out. (Older sends would be wrong: a value not kept could match a later copy of it.)
    const result: FleetsWindow = await fleets.report(venue.sentSince(recordedFrom), from, to);
    const seconds = (to - from) / 1000;
    const cpuRate = (a?: { cpuMs: number }, b?: { cpuMs: number }) => (a && b ? (b.cpuMs - a.cpuMs) / seconds : Number.NaN);
    const sentInWindow = Object.values(venue.sentSince(from)).reduce((sum, log) => sum + log.at.filter((at) => at <= to).length, 0);
    const director: DirectorLoad = {
      sockets: after.stats.sockets,
      subscriptions: after.stats.subscriptions,
      healthReadsPerSecond: (after.stats.healthReads - before.stats.healthReads) / seconds,
      cpuMsPerSecond: (after.cpu.user + after.cpu.system) / 1000 / seconds,
    };
    return {
      seconds,
      expected: sentInWindow * count,
      delivered: result.delivered,
      valuesPerSecond: result.delivered / seconds,
      p50Ms: result.latencies.quantile(0.5),
      p99Ms: result.latencies.quantile(0.99),
      maxMs: result.latencies.max(),
      bridgeCpuMsPerSecond: cpuRate(before.bridge, after.bridge),
      brokerCpuMsPerSecond: cpuRate(before.broker, after.broker),
      bridgeRssMiB: after.bridge?.rssMiB ?? Number.NaN,
      brokerRssMiB: after.broker?.rssMiB ?? Number.NaN,
      receivedPerSecond: result.fpsValues / ((to - from + drainMs(count)) / 1000),
      director,
    };
  } finally {
    await fleets.stop();
  }
}

/** The director's load with the baseline's core clients on it: their sockets, subscriptions and health reads. */
async function directLoad(venue: VenueSimulator): Promise<{ director: DirectorLoad; receivedPerSecond: number }> {
  const config: Omit<ConsumersConfig, 'count'> = { mode: 'direct', director: venue.url, hostnames: venue.hostnames, fpsIntervalMs: 1000 / FPS_HZ, pollIntervalMs: POLL_MS };
  // Each client subscribes its pairs one after another, from a director that serves them all: a longer warm-up.
  const window = await measureWindow(venue, config, BASELINE_CONSUMERS, { warmUpMs: 4 * WARM_UP_MS, windowMs: 6000 });
  return { director: window.director, receivedPerSecond: window.receivedPerSecond };
}

async function withNoDelayBroker<T>(venue: VenueSimulator, measure: (broker: Mosquitto) => Promise<T>): Promise<T> {
  const broker = await startMosquitto({ tcpNoDelay: true });
  const bridge = startBridgeProcess(venue, broker);
  try {
    await delay(1500);
    return await measure(broker);
  } finally {
    await stopProcess(bridge);
    await broker.close();
  }
}

/**
 * From the moment a cue is asked for to the moment the director has answered it: a desk publishing to the
 * bridge's command topic (QoS 1, with sentAt), against the same process calling core directly. Alternated, one
 * at a time.
 */
async function cueLatency(venue: VenueSimulator, broker: Mosquitto): Promise<CueTimes> {
  const desk = await connectAsync(broker.url, { protocolVersion: 5 });
  const core = new MediaServer({ host: venue.url });
  const times: CueTimes = { broker: [], direct: [] };
  let arrived: ((at: number) => void) | undefined;
  venue.onRequest = (method, path, at) => {
    if (method === 'POST' && path === '/api/session/transport/play') arrived?.(at);
  };
  const timed = async (send: () => Promise<unknown>): Promise<number> => {
    const started = sharedNow();
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
    venue.onRequest = undefined;
    await desk.endAsync();
    await core.close();
  }
  return { broker: times.broker.filter(Number.isFinite), direct: times.direct.filter(Number.isFinite) };
}
