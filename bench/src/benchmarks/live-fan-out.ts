import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { MediaServer, type LiveRequest } from '@stagelink/core';
import { LIVE_UPDATE_PATH, type ServerFrame } from '@stagelink/core/protocol';
import WebSocket from 'ws';
import { simControl } from '@stagelink/simulator';
import { compareRounds } from '../harness/compare.js';
import { millis, perSecond } from '../harness/format.js';
import { FrameClock } from '../harness/frame-clock.js';
import type { Benchmark, ResultRow } from '../harness/report.js';
import { startSimulatorProcess } from '../harness/simulator-process.js';
import { median, p99 } from '../harness/stats.js';
import { cpuDuring, interleavedRounds } from '../harness/timing.js';

const CONSUMERS = 200;
const INTERVAL_MS = 100;
const ROUNDS = 3;
/** Long enough for 20 subscribe round trips (core sends one at a time) and the first values. */
const SETTLE_MS = 2000;
const WINDOW_MS = 5000;
/** The first window of each side runs cold (JIT, first connections): it is measured and dropped. */
const WARM_UP_WINDOW_MS = 1000;

/** The demo session's machines (simulator README) and their monitors: 20 distinct values that change every 100 ms. */
const HOSTNAMES = ['127.0.0.1', 'actor-1', 'actor-2', 'understudy-1'];
const MONITORS = [
  ['fps', 'Actual'],
  ['CPU', 'Total'],
  ['GPUMemory', 'Usage(MB)'],
  ['ProcessMemory', 'Usage (MB)'],
  ['GPUProfiler', 'Total'],
] as const;
const VALUES: LiveRequest[] = HOSTNAMES.flatMap((hostname) =>
  MONITORS.map(([monitor, series]) => ({
    object: `subsystem:MonitoringManager.findRemoteMonitor("${hostname}:svc", "${monitor}")`,
    properties: [`object.seriesAverage("${series}", 1)`],
    updateFrequencyMs: INTERVAL_MS,
  })),
);

/** 200 consumers of the 20 values, started one way or the other; `onValue` is called once per delivered value. */
type FleetStarter = (url: string, onValue: () => void) => Promise<{ close(): Promise<void> }>;

interface WindowStats {
  valuesPerSecond: number;
  latencies: number[];
  cpuMsPerSecond: number;
  sockets: number;
  serverSubscriptions: number;
}

export const liveFanOut: Benchmark = {
  id: 'live-fan-out',
  name: 'live fan-out',
  subject: `${CONSUMERS} core consumers (one MediaServer) of ${VALUES.length} distinct values at ${INTERVAL_MS} ms`,
  baseline: 'one raw `ws` client per consumer',
  async run(log) {
    const sim = await startSimulatorProcess();
    const clock = new FrameClock();
    const uninstall = clock.install();
    try {
      log(`warm-up, then ${ROUNDS} rounds of ${WINDOW_MS / 1000} s windows each, simulator in its own process`);
      for (const fleet of [coreFleet, rawFleet]) await measure(fleet, sim.mediaServerUrl, clock, WARM_UP_WINDOW_MS);
      const measureWith = (fleet: FleetStarter) => () => measure(fleet, sim.mediaServerUrl, clock);
      const rounds = await interleavedRounds(ROUNDS, { core: measureWith(coreFleet), raw: measureWith(rawFleet) });
      if (clock.framesSeen === 0) throw new Error('The frame clock saw no live-update frame: latencies cannot be measured.');
      return { rows: rows(rounds), details: details(rounds) };
    } finally {
      uninstall();
      await sim.stop();
    }
  },
};

async function measure(startFleet: FleetStarter, url: string, clock: FrameClock, windowMs = WINDOW_MS): Promise<WindowStats> {
  let recording = false;
  let values = 0;
  const latencies: number[] = [];
  const fleet = await startFleet(url, () => {
    if (!recording) return;
    values++;
    latencies.push(clock.latencyMs());
  });
  try {
    await delay(SETTLE_MS);
    const server = await liveStats(url);
    recording = true;
    const { wallMs, cpuMs } = await cpuDuring(() => delay(windowMs));
    recording = false;
    return { valuesPerSecond: (values / wallMs) * 1000, latencies, cpuMsPerSecond: (cpuMs / wallMs) * 1000, ...server };
  } finally {
    await fleet.close();
  }
}

const coreFleet: FleetStarter = (url, onValue) => {
  const mediaServer = new MediaServer({ host: url });
  for (let index = 0; index < CONSUMERS; index++) mediaServer.live.subscribe(valueFor(index), onValue);
  return Promise.resolve({ close: () => mediaServer.close() });
};

const rawFleet: FleetStarter = async (url, onValue) => {
  const liveUrl = url.replace(/^http/, 'ws') + LIVE_UPDATE_PATH;
  const sockets = await Promise.all(Array.from({ length: CONSUMERS }, (_, index) => rawConsumer(liveUrl, valueFor(index), onValue)));
  return { close: () => Promise.all(sockets.map(closeSocket)).then(() => undefined) };
};

function valueFor(consumer: number): LiveRequest {
  return VALUES[consumer % VALUES.length] as LiveRequest;
}

/** What a front end without core would do: its own socket, one subscribe frame, every valuesChanged entry. */
async function rawConsumer(url: string, value: LiveRequest, onValue: () => void): Promise<WebSocket> {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  socket.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString('utf8')) as ServerFrame;
    const changes = frame.valuesChanged?.length ?? 0;
    for (let index = 0; index < changes; index++) onValue();
  });
  await once(socket, 'open');
  const { object, properties, updateFrequencyMs } = value;
  socket.send(JSON.stringify({ subscribe: { object, properties, configuration: { updateFrequencyMs } } }));
  return socket;
}

async function closeSocket(socket: WebSocket): Promise<void> {
  const closed = once(socket, 'close');
  socket.close(1000);
  await closed;
}

async function liveStats(url: string): Promise<{ sockets: number; serverSubscriptions: number }> {
  const summary = await simControl(url, { action: 'status' });
  return { sockets: summary.live.sockets, serverSubscriptions: summary.live.subscriptions };
}

type Rounds = Record<'core' | 'raw', WindowStats[]>;

function rows({ core, raw }: Rounds): ResultRow[] {
  const [coreShape, rawShape] = [core, raw].map((windows) => windows.at(-1) as WindowStats) as [WindowStats, WindowStats];
  const oneSocket = core.every((window) => window.sockets === 1 && window.serverSubscriptions === VALUES.length);
  return [
    {
      case: 'sockets, server subscriptions',
      subject: `${coreShape.sockets}, ${coreShape.serverSubscriptions}`,
      baseline: `${rawShape.sockets}, ${rawShape.serverSubscriptions}`,
      target: `1 socket, ${VALUES.length} subscriptions`,
      verdict: oneSocket ? 'met' : 'missed',
    },
    reported('values delivered', core, raw, (window) => window.valuesPerSecond, (value) => perSecond(value, 'values')),
    reported('p50 delivery latency', core, raw, (window) => median(window.latencies), millis),
    reported('p99 delivery latency', core, raw, (window) => p99(window.latencies), millis),
    reported('client CPU', core, raw, (window) => window.cpuMsPerSecond, (value) => `${Math.round(value)} ms/s`),
  ];
}

function reported(caseName: string, core: WindowStats[], raw: WindowStats[], statistic: (window: WindowStats) => number, format: (value: number) => string): ResultRow {
  const comparison = compareRounds(core.map(statistic), raw.map(statistic));
  return {
    case: caseName,
    subject: format(comparison.subject),
    baseline: format(comparison.baseline),
    ratioLabel: 'core / raw',
    ratio: comparison.ratio,
    ratioRange: comparison.ratioRange,
    target: 'reported',
    verdict: 'reported',
  };
}

function details({ core, raw }: Rounds): Record<string, unknown> {
  const summary = (windows: WindowStats[]) =>
    windows.map(({ latencies, ...window }) => ({ ...window, deliveries: latencies.length, p50Ms: median(latencies), p99Ms: p99(latencies) }));
  return { consumers: CONSUMERS, values: VALUES.length, intervalMs: INTERVAL_MS, windowMs: WINDOW_MS, core: summary(core), raw: summary(raw) };
}
