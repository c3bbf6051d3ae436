import { InvalidInputError, type Ref } from '@stagelink/core';
import { inRuntimeLanguage, sayError } from '../../shared/error-words.js';
import { serverConnection } from '../../shared/connections.js';
import { handleInput } from '../../shared/input.js';
import { MessageProperties, missing } from '../../shared/msg-override.js';
import type { Node, NodeAPI, NodeDef, NodeMessage } from '../../shared/node-red.js';
import { OutageReport } from '../../shared/outage.js';
import { showServerState } from '../../shared/server-status.js';
import { StatusLine } from '../../shared/status.js';
import { ClockFeed } from './clock-feed.js';
import { clockSettingsOf, type ClockSettings } from './clock-settings.js';
import { say, useRuntime } from '../../shared/words.js';

/**
 * `stagelink-clock`: one transport's show clock from core's `transport.watch`: the snapshot (playhead, section,
 * next section, cues, remainders, status) on the first output at most `rate` times a second, and on the second the
 * moments a flow reacts to: a section change, a cue passed, a warning threshold of the section's remaining time
 * reached, the clock going online, stale or offline. Never shows a stale or offline clock as live.
 */
export default function register(RED: NodeAPI): void {
  useRuntime(RED);
  RED.nodes.registerType('stagelink-clock', function StagelinkClock(this: Node<never>, def: NodeDef): void {
    RED.nodes.createNode(this, def);
    startClock(RED, this, def);
  });
}

function startClock(RED: NodeAPI, node: Node<never>, def: NodeDef): void {
  // The server's state (connecting, unreachable, a setting that cannot work) as well as this node's own.
  const status = new StatusLine(node, { live: true });
  showServerState(RED, node, def, status, { reportsSetup: true });
  const outage = new OutageReport(node);
  let settings: ClockSettings | Error;
  try {
    settings = clockSettingsOf(def);
  } catch (error) {
    settings = error instanceof Error ? error : new InvalidInputError(String(error));
  }
  let feed: ClockFeed | undefined;
  let start: NodeJS.Immediate | undefined;

  /** Watches `ref` unless the node already does; answers whether it changed. Throws what to fix. */
  const watch = (ref: Ref): boolean => {
    if (settings instanceof Error) throw settings;
    if (feed && JSON.stringify(feed.ref) === JSON.stringify(ref)) return false;
    const client = serverConnection(RED, def.server).client;
    feed?.close();
    feed = undefined;
    status.connecting();
    feed = new ClockFeed(client, ref, settings, {
      snapshot: (msg) => {
        if (!work.closing) node.send([msg, null]);
      },
      event: (msg) => {
        if (!work.closing) node.send([null, msg]);
      },
      status,
      // Core tells each problem of a clock once; a clock that keeps failing is told to Catch once per outage.
      problem: (error) => outage.failed(error, { topic: feed?.name ?? refText(ref), payload: sayError(error) }),
      recovered: () => outage.recovered(),
    });
    return true;
  };

  const work = handleInput(
    node,
    status,
    async (msg, { send }) => {
      // The node's transport when it has one; a blank one takes msg.transport.
      const ref = await new MessageProperties(RED, node, def, msg).ref('transport', 'transport');
      if (!ref) throw missing('transport', 'transport');
      // A msg for the transport already watched sends its clock now, wherever the pacing is.
      if (!watch(ref) && feed?.current) {
        msg.topic = feed.current.transport.name;
        msg.payload = feed.current;
        send([msg, null]);
      }
    },
    () => {
      if (start) clearImmediate(start);
      feed?.close();
      feed = undefined;
    },
  );

  // Watched once the whole flow has started, so a Catch node later in the flow hears of a setting that cannot work.
  start = setImmediate(() => {
    start = undefined;
    void work.track(
      async () => {
        if (settings instanceof Error) throw settings;
        // A transport from a msg property (or blank) waits for the first msg; one in the node or the environment is watched now.
        const ref = await new MessageProperties(RED, node, def, {}).ref('transport', 'transport');
        if (ref) watch(ref);
        else status.show({ fill: 'grey', shape: 'ring', text: say('status.needsTransport') });
      },
      (error) => {
        status.failed(error);
        node.error(inRuntimeLanguage(error), { topic: 'setup', payload: sayError(error) } satisfies NodeMessage);
      },
    );
  });
}

function refText(ref: Ref): string {
  return ref.name ?? ref.uid ?? '';
}
