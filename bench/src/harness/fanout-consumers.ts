/**
 * A child process holding many consumers of a venue's state, for the bridge fan-out benchmark: either MQTT
 * subscribers of the bridge's topics, or (the baseline) core clients that each connect to the director directly,
 * subscribe every machine's FPS and poll health. They do nothing but keep what arrived and when. Driven over IPC:
 * `record` starts keeping, `report` hands over the director's log of sends and answers how many of the window's
 * values arrived and how late (matched here, so that only a summary crosses back).
 */
import { livePresets, MediaServer } from '@stagelink/core';
import { connectAsync, type MqttClient } from 'mqtt';
import { LatencyHistogram, type HistogramBins } from './latency-histogram.js';
import { matchReceipts, sharedNow, type Receipts, type SentLog } from './value-matching.js';

export interface ConsumersConfig {
  mode: 'mqtt' | 'direct';
  count: number;
  /** mqtt: the broker and the bridge's prefix. */
  broker?: string;
  prefix?: string;
  /** mqtt: the subscription's QoS (default 1). */
  qos?: 0 | 1;
  /** direct: the director, its machines and how often each consumer polls health. */
  director?: string;
  hostnames?: string[];
  fpsIntervalMs?: number;
  pollIntervalMs?: number;
}

/** The window: sends from `from` to `to` (shared clock) are the values every consumer should get. */
export type ParentMessage =
  | { type: 'record' }
  | { type: 'report'; sent: Record<string, SentLog>; from: number; to: number }
  | { type: 'stop' };

export type ChildMessage =
  | { type: 'ready'; connected: number }
  | { type: 'window'; fpsValues: number; healthMessages: number; delivered: number; latencies: HistogramBins }
  | { type: 'error'; message: string };

/** One consumer's receipts, by machine hostname (MQTT topic segment or the hostname asked for). */
type ConsumerReceipts = Map<string, Receipts>;

const consumers: ConsumerReceipts[] = [];
let recording = false;
let healthMessages = 0;

function keep(receipts: ConsumerReceipts, hostname: string, value: unknown): void {
  if (!recording || typeof value !== 'number') return;
  let machine = receipts.get(hostname);
  if (!machine) receipts.set(hostname, (machine = { at: [], values: [] }));
  machine.at.push(sharedNow());
  machine.values.push(value);
}

async function mqttConsumers(config: ConsumersConfig): Promise<() => Promise<void>> {
  const clients: MqttClient[] = [];
  const machines = `${config.prefix}/machines/`;
  for (let index = 0; index < config.count; index++) {
    const receipts: ConsumerReceipts = new Map();
    consumers.push(receipts);
    const client = await connectAsync(config.broker as string, { protocolVersion: 5, clean: true, reconnectPeriod: 1000, keepalive: 30 });
    client.on('message', (topic, payload) => {
      if (!recording) return;
      if (topic.endsWith('/fps')) {
        const body = JSON.parse(payload.toString('utf8')) as { value?: unknown; stale?: boolean };
        if (!body.stale) keep(receipts, topic.slice(machines.length, -'/fps'.length), body.value);
      } else healthMessages++;
    });
    await client.subscribeAsync([`${machines}+/fps`, `${machines}+/health`], { qos: config.qos ?? 1 });
    clients.push(client);
  }
  return async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
  };
}

function directConsumers(config: ConsumersConfig): () => Promise<void> {
  const servers: MediaServer[] = [];
  const timers: NodeJS.Timeout[] = [];
  const [director = '', ...others] = config.hostnames ?? [];
  for (let index = 0; index < config.count; index++) {
    const receipts: ConsumerReceipts = new Map();
    consumers.push(receipts);
    const mediaServer = new MediaServer({ host: config.director as string });
    const presets: [string, ReturnType<typeof livePresets.localFps>][] = [[director, livePresets.localFps()], ...others.map((hostname) => [hostname, livePresets.remoteFps(hostname)] as [string, ReturnType<typeof livePresets.localFps>])];
    for (const [hostname, preset] of presets) {
      mediaServer.live.subscribe({ ...preset, updateFrequencyMs: config.fpsIntervalMs }, ({ value }) => keep(receipts, hostname, value));
    }
    const poll = (): void => {
      mediaServer.status.health().then(
        () => {
          if (recording) healthMessages += presets.length;
        },
        () => undefined,
      );
    };
    // Spread over the interval, as consumers started at different times would be.
    const interval = config.pollIntervalMs ?? 2000;
    timers.push(setTimeout(() => timers.push(setInterval(poll, interval)), Math.random() * interval));
    servers.push(mediaServer);
  }
  return async () => {
    for (const timer of timers) clearTimeout(timer);
    for (const timer of timers) clearInterval(timer);
    await Promise.all(servers.map((server) => server.close()));
  };
}

/** Matches every consumer's receipts to the director's sends; counts and times those sent within the window. */
function windowReport({ sent, from, to }: Extract<ParentMessage, { type: 'report' }>): Extract<ChildMessage, { type: 'window' }> {
  const latencies = new LatencyHistogram();
  let fpsValues = 0;
  for (const receipts of consumers) {
    for (const [hostname, machine] of receipts) {
      fpsValues += machine.at.length;
      const log = sent[hostname];
      if (!log) continue;
      matchReceipts(log, machine, (sentAt, latencyMs) => {
        if (sentAt >= from && sentAt <= to) latencies.add(latencyMs);
      });
    }
  }
  return { type: 'window', fpsValues, healthMessages, delivered: latencies.count, latencies: latencies.bins() };
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as ConsumersConfig;
  const send = (message: ChildMessage): void => void process.send?.(message);
  let stop: () => Promise<void>;
  try {
    stop = config.mode === 'mqtt' ? await mqttConsumers(config) : directConsumers(config);
  } catch (error) {
    send({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'record') {
      healthMessages = 0;
      for (const receipts of consumers) receipts.clear();
      recording = true;
    } else if (message.type === 'report') {
      recording = false;
      send(windowReport(message));
    } else {
      void stop().finally(() => process.exit(0));
    }
  });
  send({ type: 'ready', connected: config.count });
}

void main();
