import { InvalidInputError, RollingAverage, type LiveStatus, type LiveSubscription, type LiveValue } from '@stagelink/core';
import { sayingError } from '../../shared/error-words.js';
import { serverConnection } from '../../shared/connections.js';
import { handleInput } from '../../shared/input.js';
import type { ContextStore, Node, NodeAPI, NodeDef, NodeMessage } from '../../shared/node-red.js';
import { OutageReport } from '../../shared/outage.js';
import { showServerState } from '../../shared/server-status.js';
import { StatusLine } from '../../shared/status.js';
import { liveRequestOf } from './live-request.js';
import { say, useRuntime } from '../../shared/words.js';

/**
 * `stagelink-liveupdate-in`: watches values on the live-update stream (core's presets or custom expressions)
 * and emits each as `msg.payload` with `msg.topic` on its first output, optionally as a rolling average. Shares the
 * server's one socket; shows "offline" the moment the stream drops and "stale" when its values stop while the
 * stream stays up, so no stale value looks live, and sends that state ("online" / "stale" / "offline") on its
 * second output, so a gauge or chart on the first sees only values.
 * A msg can change what it watches at run time, and the latest value can be kept in flow or global context.
 */
export default function register(RED: NodeAPI): void {
  useRuntime(RED);
  RED.nodes.registerType('stagelink-liveupdate-in', function StagelinkLiveUpdateIn(this: Node<never>, def: NodeDef): void {
    RED.nodes.createNode(this, def);
    startLiveUpdateIn(RED, this, def);
  });
}

/** Settings a `subscribe` msg may bring; the ones it leaves out keep the node's. */
const TARGET_SETTINGS = ['preset', 'machine', 'workload', 'instance', 'transport', 'object', 'properties', 'interval', 'topic'] as const;

function startLiveUpdateIn(RED: NodeAPI, node: Node<never>, def: NodeDef): void {
  // The server's state (connecting, unreachable, a setting that cannot work) as well as this node's own.
  const status = new StatusLine(node, { live: true });
  showServerState(RED, node, def, status, { reportsSetup: true });
  const samples = Math.floor(Number(def.average));
  const averages = new Map<string, RollingAverage>();
  const outage = new OutageReport(node);
  const store = contextStore(node, def.store);
  let subscription: LiveSubscription | undefined;
  let topic = topicOf(def);

  const report = (error: Error): void => {
    status.failed(error);
    // A property that fails to evaluate fails on every update: Catch nodes hear of it once until it recovers.
    // With a msg, so Catch nodes see it (the node has no msg of its own to pass on).
    outage.failed(error, { topic, payload: undefined });
  };

  const onValue = ({ object, property, value }: LiveValue): void => {
    outage.recovered();
    const msg: NodeMessage = { topic, payload: value, object, property };
    if (samples > 1 && typeof value === 'number' && Number.isFinite(value)) {
      let average = averages.get(property);
      if (!average) averages.set(property, (average = new RollingAverage(samples)));
      msg.payload = average.push(value);
      msg.sample = value;
    }
    status.ok(display(msg.payload));
    store?.set(topic, msg.payload);
    node.send([msg, null]);
  };

  /** Old samples must not mix with those after the gap, and a stored value must not look live. */
  const forgetValues = (): void => {
    for (const average of averages.values()) average.reset();
    store?.set(topic, null);
  };

  const onStatus = (live: LiveStatus): void => {
    if (live === 'connecting') status.connecting();
    else if (live === 'offline') {
      forgetValues();
      status.offline();
    } else if (live === 'stale') {
      // The link is up and other values may flow: only this node's values stopped.
      forgetValues();
      status.stale();
    } else status.show({ fill: 'green', shape: 'ring', text: say('status.online') });
    if (live !== 'connecting') node.send([null, { topic, payload: live }]);
  };

  /**
   * Stops watching. The kept value goes to null under the topic it was kept under: nothing renews it now (the node
   * unsubscribed, watches something else or under another topic, or closes for a deploy), and a dashboard reading
   * the context must not show it as live.
   */
  const unsubscribe = (): void => {
    subscription?.close();
    subscription = undefined;
    averages.clear();
    store?.set(topic, null);
  };

  /** Replaces what the node watches; throws what to fix in the settings. */
  const subscribe = (settings: NodeDef): void => {
    const server = serverConnection(RED, settings.server);
    const request = liveRequestOf(settings);
    unsubscribe();
    topic = topicOf(settings);
    status.connecting();
    // Core tells a subscription where the stream stands at once, also when another node opened the socket.
    subscription = server.client.live.subscribe(request, onValue, { onStatus, onError: (error) => report(error) });
  };

  // Subscribe once the whole flow has started, so a Catch node later in the flow sees a setup error.
  const start = setImmediate(() => {
    try {
      subscribe(def);
    } catch (error) {
      report(error instanceof Error ? error : new Error(String(error)));
    }
  });

  // `msg.action`: "subscribe" watches what the msg names (settings it leaves out stay the node's), "unsubscribe" stops.
  handleInput(node, status, (msg) => {
    if (msg.action === 'unsubscribe') {
      unsubscribe();
      status.show({ fill: 'grey', shape: 'ring', text: say('status.unsubscribed') });
    } else if (msg.action === 'subscribe') {
      subscribe({ ...def, ...targetOf(msg) });
    } else {
      throw sayingError(InvalidInputError, 'error.action', { got: JSON.stringify(msg.action) ?? typeof msg.action });
    }
  }, () => {
    // Releases this node's server subscription (and the socket, when it was the last): nothing leaks.
    clearImmediate(start);
    unsubscribe();
  });
}

/** The target settings a msg brings, properties as one expression per line as the node stores them. */
function targetOf(msg: NodeMessage): Partial<NodeDef> {
  const target: Record<string, unknown> = {};
  for (const key of TARGET_SETTINGS) {
    const value = msg[key];
    if (value === undefined || value === null || value === '') continue;
    target[key] = key === 'properties' && Array.isArray(value) ? value.join('\n') : value;
  }
  return target;
}

/** Where the latest value is kept for other nodes to read, under its topic: flow or global context, or nowhere. */
function contextStore(node: Node<never>, store: unknown): ContextStore | undefined {
  if (store === 'flow') return node.context().flow;
  if (store === 'global') return node.context().global;
  return undefined;
}

/** The node's topic, else the preset name, else (custom) the object expression. */
function topicOf(def: NodeDef): string {
  const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
  if (text(def.topic) !== '') return text(def.topic);
  const preset = text(def.preset) || 'localFps';
  return preset === 'custom' ? text(def.object) || 'custom' : preset;
}

function display(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(1);
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return say('status.noValue');
  return Array.isArray(value) ? say('status.items', { count: value.length }) : say('status.object');
}
