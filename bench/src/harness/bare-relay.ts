/**
 * The bridge's hop with nothing else: a plain `ws` client on the director's live-update socket and a plain MQTT
 * client, publishing every machine's FPS as it arrives (retained, QoS 1, as the bridge does). No reconnects, no
 * throttling, no stale marks, no averages: the latency floor of a director-to-MQTT relay, for the bridge's added
 * latency to be judged against in the same run. Its own process, as the bridge is. Config as a JSON argument;
 * sends `ready` over IPC once every machine's FPS is subscribed, and stops on `stop`.
 */
import { LIVE_UPDATE_PATH, type ServerFrame } from '@stagelink/core/protocol';
import { connectAsync } from 'mqtt';
import WebSocket from 'ws';
import { RELAY_FPS_PROPERTY, type RelayConfig } from './bare-relay-config.js';

const MONITORING_MANAGER = 'subsystem:MonitoringManager';
async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as RelayConfig;
  const mqtt = await connectAsync(config.broker, { protocolVersion: 5, clean: true, reconnectPeriod: 0 });
  // A small publish goes out at once, as the bridge's does (it turns Nagle's algorithm off too).
  (mqtt.stream as { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
  const socket = new WebSocket(config.director.replace(/^http/, 'ws') + LIVE_UPDATE_PATH, { perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  // A director refuses a frame that follows another before its answer ("Invalid JSON"): one subscribe at a time,
  // the next once the subscription list comes back.
  const queue: string[] = [];
  let waiting = false;
  const sendNext = (): void => {
    const next = queue.shift();
    waiting = next !== undefined;
    if (next !== undefined) socket.send(next);
  };
  const subscribe = (object: string, property: string, updateFrequencyMs: number): void => {
    queue.push(JSON.stringify({ subscribe: { object, properties: [property], configuration: { updateFrequencyMs } } }));
    if (!waiting) sendNext();
  };
  /** Subscription id to the hostname whose FPS it is; the remote-node list's own id. */
  const hostnames = new Map<number, string>();
  let nodesId: number | undefined;
  let subscribed = false;
  let ready = false;
  socket.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString('utf8')) as ServerFrame;
    if (frame.subscriptions || frame.error) sendNext();
    for (const entry of frame.subscriptions ?? []) {
      if (entry.objectPath === MONITORING_MANAGER) nodesId = entry.id;
      else if (entry.objectPath.includes('findLocalMonitor')) hostnames.set(entry.id, config.directorHostname);
      else {
        const node = /findRemoteMonitor\("([^"]+)"/.exec(entry.objectPath)?.[1];
        if (node) hostnames.set(entry.id, node.slice(0, node.lastIndexOf(':')));
      }
    }
    for (const change of frame.valuesChanged ?? []) {
      if (change.id === nodesId && Array.isArray(change.value) && !subscribed) {
        // The director lists the nodes it monitors (every machine but itself): one subscription each.
        subscribed = true;
        for (const node of change.value) if (typeof node === 'string') subscribe(`${MONITORING_MANAGER}.findRemoteMonitor(${JSON.stringify(node)}, "fps")`, RELAY_FPS_PROPERTY, config.updateFrequencyMs);
        ready = true;
        continue;
      }
      const hostname = hostnames.get(change.id);
      if (hostname === undefined || typeof change.value !== 'number') continue;
      if (ready && queue.length === 0 && !waiting && hostnames.size > 1) {
        ready = false;
        process.send?.({ type: 'ready' });
      }
      mqtt.publish(`${config.prefix}/machines/${hostname}/fps`, JSON.stringify({ value: change.value }), { qos: 1, retain: true });
    }
  });
  subscribe(`${MONITORING_MANAGER}.findLocalMonitor("fps")`, RELAY_FPS_PROPERTY, config.updateFrequencyMs);
  subscribe(MONITORING_MANAGER, 'object.remoteNodes()', 1000);
  process.on('message', (message: { type?: string }) => {
    if (message.type !== 'stop') return;
    socket.close(1000);
    void mqtt.endAsync().finally(() => process.exit(0));
  });
}

void main().catch((error: unknown) => {
  process.stderr.write(`bare relay: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
