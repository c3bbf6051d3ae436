import { fork, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { startMosquitto, MOSQUITTO_MISSING, type Mosquitto } from '@stagelink/bridge/testing';
import { connectAsync, type MqttClient } from 'mqtt';
import { RELAY_FPS_PROPERTY, type RelayConfig } from '../harness/bare-relay-config.js';
import { compareRounds } from '../harness/compare.js';
import { millis, perSecond, times } from '../harness/format.js';
import { processCpuMs } from '../harness/timing.js';
import { atMost, notRun, type Benchmark, type ResultRow } from '../harness/report.js';
import { median, quantile } from '../harness/stats.js';
import { stopProcess } from '../harness/stop-process.js';
import { matchReceipts, sharedNow, type Receipts } from '../harness/value-matching.js';
import { startVenueSimulator, type VenueSimulator } from '../harness/venue-simulator.js';

const MACHINES = 20;
const OSC_ADDRESSES = 8;
const FPS_HZ = 4;
const ROUNDS = 5;
const WARM_UP_MS = 3000;
const WINDOW_MS = 6000;
/** Values sent in a window may arrive this long after it. */
const DRAIN_MS = 1500;
/** The bridge's added latency, as a ratio of the bare relay's in the same run. */
const RATIO_TARGET = 1.5;
const BRIDGE_PREFIX = 'bench/bridge';
const RELAY_PREFIX = 'bench/relay';

const BRIDGE_CLI = fileURLToPath(new URL('cli.mjs', import.meta.resolve('@stagelink/bridge')));
const RELAY = fileURLToPath(new URL('../harness/bare-relay.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

export const bridgeVenueIo: Benchmark = {
  id: 'bridge-venue-io',
  name: 'bridge venue I/O',
  subject: `the bridge (a process, --fps-hz ${FPS_HZ}) on the simulator's venue director of ${MACHINES} machines: FPS to one MQTT subscriber (QoS 1), then the state as OSC to ${OSC_ADDRESSES} UDP receivers`,
  baseline: 'a bare relay (a process: a plain `ws` client on the live-update socket and a plain MQTT client publishing each FPS as it comes) doing the same hop, measured in the same windows; the bridge without OSC for its CPU',
  async run(log) {
    if (MOSQUITTO_MISSING) return { rows: [notRun('all', '-', MOSQUITTO_MISSING)], details: {} };
    const venue = await startVenueSimulator(MACHINES);
    const broker = await startMosquitto();
    try {
      log(`latency: the bridge and the bare relay side by side, ${ROUNDS} windows of ${WINDOW_MS / 1000} s`);
      const latency = await latencyRounds(venue, broker);
      log(`OSC out: ${MACHINES} machines to ${OSC_ADDRESSES} receivers, ${ROUNDS} windows of ${WINDOW_MS / 1000} s`);
      const osc = await oscRounds(venue, broker);
      return { rows: rows(latency, osc), details: { machines: MACHINES, oscAddresses: OSC_ADDRESSES, fpsHz: FPS_HZ, windowMs: WINDOW_MS, latency, osc } };
    } finally {
      await broker.close();
      await venue.close();
    }
  },
};

interface LatencyRound {
  bridge: { p50: number; p99: number; delivered: number };
  relay: { p50: number; p99: number; delivered: number };
  bridgeCpuMsPerSecond: number;
}

interface OscRound {
  messagesPerSecond: number;
  fpsValuesPerSecond: number;
  bridgeCpuMsPerSecond: number;
}

function startBridge(venue: VenueSimulator, broker: Mosquitto, extra: string[] = []): ChildProcess {
  const args = ['--server', venue.url, '--mqtt', broker.url, '--prefix', BRIDGE_PREFIX, '--fps-hz', String(FPS_HZ), '--fps-deadband', '0', '--log-format', 'json', ...extra];
  const bridge = fork(BRIDGE_CLI, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  bridge.stderr?.resume();
  return bridge;
}

async function startRelay(venue: VenueSimulator, broker: Mosquitto): Promise<ChildProcess> {
  const config: RelayConfig = { director: venue.url, directorHostname: venue.hostnames[0] ?? '', broker: broker.url, prefix: RELAY_PREFIX, updateFrequencyMs: Math.max(100, Math.round(1000 / FPS_HZ)) };
  const relay = fork(RELAY, [JSON.stringify(config)], { execArgv: ['--import', TSX], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = new Promise<void>((resolve, reject) => {
    relay.on('message', (message: { type?: string }) => {
      if (message.type === 'ready') resolve();
    });
    relay.once('exit', (code) => reject(new Error(`the bare relay exited with ${String(code)}`)));
  });
  await raceTimeout(ready, 20_000, () => Promise.reject(new Error('the bare relay did not subscribe within 20 s')));
  return relay;
}

async function stopRelay(relay: ChildProcess): Promise<void> {
  if (relay.exitCode !== null || relay.signalCode !== null) return;
  const exited = once(relay, 'exit');
  relay.send({ type: 'stop' });
  await raceTimeout(exited, 5000, () => relay.kill('SIGKILL'));
}

/**
 * `work`, or `onTimeout` after `ms` if it is still pending. The timer is cleared when `work` settles first, so it
 * keeps neither the bench's process nor its next window waiting.
 */
async function raceTimeout<T, U>(work: Promise<T>, ms: number, onTimeout: () => U | Promise<U>): Promise<T | U> {
  const timer = new AbortController();
  try {
    return await Promise.race([work, delay(ms, undefined, { signal: timer.signal }).then(onTimeout)]);
  } finally {
    timer.abort();
  }
}

/** One MQTT subscriber of both prefixes, keeping every FPS value with when it arrived, per side and machine. */
async function subscriber(broker: Mosquitto): Promise<{ client: MqttClient; receipts: Record<'bridge' | 'relay', Map<string, Receipts>>; recording: { on: boolean } }> {
  const client = await connectAsync(broker.url, { protocolVersion: 5, clean: true });
  const receipts = { bridge: new Map<string, Receipts>(), relay: new Map<string, Receipts>() };
  const recording = { on: false };
  client.on('message', (topic, payload) => {
    if (!recording.on) return;
    const at = sharedNow();
    const side = topic.startsWith(`${BRIDGE_PREFIX}/`) ? 'bridge' : 'relay';
    const hostname = topic.split('/')[3] ?? '';
    const body = JSON.parse(payload.toString('utf8')) as { value?: unknown; stale?: boolean };
    if (body.stale || typeof body.value !== 'number') return;
    let machine = receipts[side].get(hostname);
    if (!machine) receipts[side].set(hostname, (machine = { at: [], values: [] }));
    machine.at.push(at);
    machine.values.push(body.value);
  });
  await client.subscribeAsync([`${BRIDGE_PREFIX}/machines/+/fps`, `${RELAY_PREFIX}/machines/+/fps`], { qos: 1 });
  return { client, receipts, recording };
}

async function untilFeeding(check: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`${what} within 30 s`);
    await delay(200);
  }
}

async function latencyRounds(venue: VenueSimulator, broker: Mosquitto): Promise<LatencyRound[]> {
  const bridge = startBridge(venue, broker);
  let relay: ChildProcess | undefined;
  const consumer = await subscriber(broker);
  try {
    relay = await startRelay(venue, broker);
    consumer.recording.on = true;
    await untilFeeding(() => consumer.receipts.bridge.size === MACHINES && consumer.receipts.relay.size === MACHINES, 'the bridge and the relay did not both pass on every machine');
    await delay(WARM_UP_MS);
    const rounds: LatencyRound[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      consumer.recording.on = false;
      consumer.receipts.bridge.clear();
      consumer.receipts.relay.clear();
      const recordedFrom = sharedNow();
      consumer.recording.on = true;
      await delay(300);
      const from = sharedNow();
      const cpuBefore = processCpuMs(bridge.pid as number);
      await delay(WINDOW_MS);
      const to = sharedNow();
      const cpu = (processCpuMs(bridge.pid as number) - cpuBefore) / ((to - from) / 1000);
      await delay(DRAIN_MS);
      consumer.recording.on = false;
      const sent = venue.sentSince(recordedFrom);
      const side = (receipts: Map<string, Receipts>, suffix: string) => {
        const latencies: number[] = [];
        for (const [hostname, machine] of receipts) {
          const log = sent[`${hostname}${suffix}`];
          if (log) matchReceipts(log, machine, (sentAt, latencyMs) => sentAt >= from && sentAt <= to && latencies.push(latencyMs));
        }
        return { p50: median(latencies), p99: quantile(latencies, 0.99), delivered: latencies.length };
      };
      rounds.push({ bridge: side(consumer.receipts.bridge, ''), relay: side(consumer.receipts.relay, `#${RELAY_FPS_PROPERTY}`), bridgeCpuMsPerSecond: cpu });
    }
    return rounds;
  } finally {
    await consumer.client.endAsync(true);
    if (relay) await stopRelay(relay);
    await stopProcess(bridge);
  }
}

async function oscRounds(venue: VenueSimulator, broker: Mosquitto): Promise<OscRound[]> {
  const receivers: Socket[] = [];
  const counts = { messages: 0, fps: 0 };
  for (let index = 0; index < OSC_ADDRESSES; index++) {
    const socket = createSocket('udp4');
    socket.on('message', (packet: Buffer) => {
      counts.messages++;
      // The address is the packet's first string; an FPS value's ends in /fps.
      const end = packet.indexOf(0);
      if (end > 4 && packet.toString('latin1', end - 4, end) === '/fps') counts.fps++;
    });
    socket.bind(0, '127.0.0.1');
    await once(socket, 'listening');
    receivers.push(socket);
  }
  const targets = receivers.map((socket) => `127.0.0.1:${socket.address().port}`).join(',');
  const bridge = startBridge(venue, broker, ['--osc-send', targets]);
  try {
    await untilFeeding(() => counts.fps >= MACHINES * OSC_ADDRESSES, 'the bridge sent no FPS values over OSC');
    await delay(WARM_UP_MS);
    const rounds: OscRound[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const before = { ...counts, cpu: processCpuMs(bridge.pid as number), at: performance.now() };
      await delay(WINDOW_MS);
      const seconds = (performance.now() - before.at) / 1000;
      rounds.push({
        messagesPerSecond: (counts.messages - before.messages) / seconds,
        fpsValuesPerSecond: (counts.fps - before.fps) / seconds,
        bridgeCpuMsPerSecond: (processCpuMs(bridge.pid as number) - before.cpu) / seconds,
      });
    }
    return rounds;
  } finally {
    await stopProcess(bridge);
    await Promise.all(receivers.map((socket) => new Promise<void>((resolve) => socket.close(() => resolve()))));
  }
}

function rows(latency: LatencyRound[], osc: OscRound[]): ResultRow[] {
  const latencyRow = (statistic: 'p50' | 'p99'): ResultRow => {
    const comparison = compareRounds(
      latency.map((round) => round.bridge[statistic]),
      latency.map((round) => round.relay[statistic]),
    );
    const delivered = (side: 'bridge' | 'relay') => latency.reduce((sum, round) => sum + round[side].delivered, 0);
    return {
      case: `bridge added latency ${statistic} (1 subscriber, QoS 1)`,
      subject: millis(comparison.subject),
      baseline: millis(comparison.baseline),
      ratioLabel: 'bridge / bare relay',
      ratio: comparison.ratio,
      ratioRange: comparison.ratioRange,
      target: `<= ${RATIO_TARGET}x bare relay`,
      verdict: atMost(comparison.ratio, RATIO_TARGET),
      note: `from the value leaving the director to its publish reaching one subscriber through Mosquitto, both in the same ${ROUNDS} windows; ${delivered('bridge')} and ${delivered('relay')} values matched`,
    };
  };
  const oscCpu = compareRounds(
    osc.map((round) => round.bridgeCpuMsPerSecond),
    latency.map((round) => round.bridgeCpuMsPerSecond),
  );
  return [
    latencyRow('p50'),
    latencyRow('p99'),
    {
      case: `OSC out, ${MACHINES} machines x ${OSC_ADDRESSES} addresses: values sent`,
      subject: perSecond(median(osc.map((round) => round.messagesPerSecond)), 'values'),
      baseline: '-',
      target: 'reported',
      verdict: 'reported',
      note: `every OSC message the receivers got, stale marks and heartbeats included; of them FPS values ${perSecond(median(osc.map((round) => round.fpsValuesPerSecond)), 'values')} (at most ${Math.floor((MACHINES * OSC_ADDRESSES * FPS_HZ) / 0.9)}/s: ${FPS_HZ} Hz per address, a value a tenth of a period early let through)`,
    },
    {
      case: 'OSC out: bridge CPU',
      subject: `${Math.round(oscCpu.subject)} ms/s`,
      baseline: `${Math.round(oscCpu.baseline)} ms/s`,
      ratioLabel: 'with OSC / MQTT only',
      ratio: oscCpu.ratio,
      ratioRange: oscCpu.ratioRange,
      target: 'reported',
      verdict: 'reported',
      note: `the bridge process's CPU with --osc-send to ${OSC_ADDRESSES} receivers, against the same bridge without it in the latency windows; ratio ${times(oscCpu.ratio)}`,
    },
  ];
}
