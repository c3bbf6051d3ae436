/**
 * A child process holding many consumers of a venue's state, for the bridge fan-out benchmark: either MQTT
 * subscribers of the bridge's topics, or (the baseline) core clients that each connect to the director directly,
 * subscribe every machine's FPS and poll health. Driven over IPC: `record` starts a window, `report` ends it and
 * answers what arrived in it.
 */
import { livePresets, MediaServer } from '@stagelink/core';
import { connectAsync, type MqttClient } from 'mqtt';
import { fpsValueAge } from './venue-director.js';

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

export type ParentMessage = { type: 'record' } | { type: 'report' } | { type: 'stop' };
export type ChildMessage =
  | { type: 'ready'; connected: number }
  | { type: 'window'; fpsValues: number; healthMessages: number; latencies: number[] }
  | { type: 'error'; message: string };

let recording = false;
let fpsValues = 0;
let healthMessages = 0;
let latencies: number[] = [];

function onFps(value: unknown): void {
  if (!recording || typeof value !== 'number') return;
  fpsValues++;
  latencies.push(fpsValueAge(value, Date.now()));
}

async function mqttConsumers(config: ConsumersConfig): Promise<() => Promise<void>> {
  const clients: MqttClient[] = [];
  const fpsSuffix = '/fps';
  for (let index = 0; index < config.count; index++) {
    const client = await connectAsync(config.broker as string, { protocolVersion: 5, clean: true, reconnectPeriod: 1000, keepalive: 30 });
    client.on('message', (topic, payload) => {
      if (!recording) return;
      if (topic.endsWith(fpsSuffix)) {
        const body = JSON.parse(payload.toString('utf8')) as { value?: unknown; stale?: boolean };
        if (!body.stale) onFps(body.value);
      } else healthMessages++;
    });
    await client.subscribeAsync([`${config.prefix}/machines/+/fps`, `${config.prefix}/machines/+/health`], { qos: config.qos ?? 1 });
    clients.push(client);
  }
  return async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
  };
}

function directConsumers(config: ConsumersConfig): () => Promise<void> {
  const servers: MediaServer[] = [];
  const timers: NodeJS.Timeout[] = [];
  const [, ...others] = config.hostnames ?? [];
  for (let index = 0; index < config.count; index++) {
    const mediaServer = new MediaServer({ host: config.director as string });
    const presets = [livePresets.localFps(), ...others.map((hostname) => livePresets.remoteFps(hostname))];
    for (const preset of presets) mediaServer.live.subscribe({ ...preset, updateFrequencyMs: config.fpsIntervalMs }, ({ value }) => onFps(value));
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
      fpsValues = 0;
      healthMessages = 0;
      latencies = [];
      recording = true;
    } else if (message.type === 'report') {
      recording = false;
      send({ type: 'window', fpsValues, healthMessages, latencies });
    } else {
      void stop().finally(() => process.exit(0));
    }
  });
  send({ type: 'ready', connected: config.count });
}

void main();
