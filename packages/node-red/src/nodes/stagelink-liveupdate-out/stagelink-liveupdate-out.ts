import { InvalidInputError, LiveUpdateError, type LiveStatus, type LiveSubscription } from '@stagelink/core';
import { sayError, sayingError } from '../../shared/error-words.js';
import { serverConnection } from '../../shared/connections.js';
import { handleInput } from '../../shared/input.js';
import type { Node, NodeAPI, NodeDef } from '../../shared/node-red.js';
import { OutageReport } from '../../shared/outage.js';
import { showServerState } from '../../shared/server-status.js';
import { StatusLine } from '../../shared/status.js';
import { liveRequestOf } from '../stagelink-liveupdate-in/live-request.js';
import { say, useRuntime } from '../../shared/words.js';

/**
 * `stagelink-liveupdate-out`: writes `msg.payload` through the live-update stream (`set`) to a transport's
 * brightness or volume, or to any property given as expressions: how real clients change levels smoothly without
 * a REST call per step. Holds one subscription (the server needs its id for a write) on the server's shared
 * socket; a write while the stream is down fails at once, never later.
 */
export default function register(RED: NodeAPI): void {
  useRuntime(RED);
  RED.nodes.registerType('stagelink-liveupdate-out', function StagelinkLiveUpdateOut(this: Node<never>, def: NodeDef): void {
    RED.nodes.createNode(this, def);
    startLiveUpdateOut(RED, this, def);
  });
}

function startLiveUpdateOut(RED: NodeAPI, node: Node<never>, def: NodeDef): void {
  // The server's state (connecting, unreachable, a setting that cannot work) as well as this node's own.
  const status = new StatusLine(node, { live: true });
  showServerState(RED, node, def, status, { reportsSetup: true });
  let subscription: LiveSubscription | undefined;
  let problem: Error | undefined;
  /** What the status shows once the stream is up: the last value written, so a reconnect does not hide it. */
  let written: string | undefined;
  /** The property's values stopped coming back while the stream is up: nothing confirms a write then. */
  let stale = false;

  /** Ready, or the last write; marked while stale. */
  const showReady = (): void => {
    if (stale) status.stale(written === undefined ? undefined : say('status.staleWrote', { value: written }));
    else if (written !== undefined) status.ok(say('status.wrote', { value: written }));
    else status.show({ fill: 'green', shape: 'ring', text: say('status.ready') });
  };
  const onStatus = (live: LiveStatus): void => {
    stale = live === 'stale';
    if (live === 'offline') status.offline();
    else if (live === 'connecting') status.connecting();
    else if (problem) status.failed(problem);
    else showReady();
  };
  // A setting that cannot work or a property the server refuses reaches Catch nodes at deploy, once until it
  // works again, not only with the first write (a fader nobody moves before the show would hide it till then).
  const outage = new OutageReport(node);
  const onError = (error: Error): void => {
    problem = error;
    status.failed(error);
    outage.failed(error, { topic: 'setup', payload: sayError(error) });
  };

  // A write goes by the server's id for the property, so the node subscribes once the whole flow has started, or
  // at its first msg if that comes sooner (core holds the write until the id comes, on a socket that is open).
  let tried = false;
  const subscribe = (): void => {
    if (tried) return;
    tried = true;
    try {
      const request = liveRequestOf(def);
      const working = (): void => {
        problem = undefined;
        outage.recovered();
      };
      subscription = serverConnection(RED, def.server).client.live.subscribe(request, working, { onStatus, onError });
    } catch (error) {
      // Kept as thrown (an InvalidInputError for a setting, with its code), so Catch nodes can tell what failed.
      onError(error instanceof Error ? error : new LiveUpdateError(String(error)));
    }
  };
  const start = setImmediate(subscribe);

  handleInput(node, status, async (msg, { send }) => {
    if (msg.payload === undefined || msg.payload === null) throw sayingError(InvalidInputError, 'error.noValue');
    subscribe();
    if (!subscription) throw problem ?? sayingError(LiveUpdateError, 'error.notSubscribed');
    await subscription.set(msg.payload);
    written = display(msg.payload);
    showReady();
    send(msg);
  }, () => {
    clearImmediate(start);
    tried = true;
    subscription?.close();
  });
}

function display(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(3);
  return typeof value === 'string' || typeof value === 'boolean' ? String(value) : say('status.anObject');
}
