import { ConfirmationRequiredError, InvalidInputError, LAYER_OPERATIONS, type LayersSnapshot, type Ref } from '@stagelink/core';
import { inRuntimeLanguage, sayError, sayingError } from '../../shared/error-words.js';
import { serverConnection } from '../../shared/connections.js';
import { handleInput } from '../../shared/input.js';
import { MessageProperties, missing, takeConfirmation } from '../../shared/msg-override.js';
import type { Node, NodeAPI, NodeDef, NodeMessage, NodeStatus } from '../../shared/node-red.js';
import { showServerState } from '../../shared/server-status.js';
import { StatusLine } from '../../shared/status.js';
import { say, useRuntime } from '../../shared/words.js';
import { LAYER_OPERATIONS_CONFIRMED, layerOperationNamed } from './layer-operations.js';
import { layerName, layerReading, verdictOf, type LayerReading } from './layer-state.js';

/**
 * `stagelink-renderstream`: starts, restarts, syncs or stops one RenderStream layer's workload (Unreal, Notch,
 * TouchDesigner on a cluster), and watches how that workload stands: on the status line, and each change on the
 * second output. Every node on one server shares that server's one watch of the layers. Stop needs
 * `msg.confirm === true` (consumed here) unless the node is armed, as failover does: a stray inject must not
 * darken a layer.
 */
export default function register(RED: NodeAPI): void {
  useRuntime(RED);
  RED.nodes.registerType('stagelink-renderstream', function StagelinkRenderstream(this: Node<never>, def: NodeDef): void {
    RED.nodes.createNode(this, def);
    startRenderstream(RED, this, def);
  });
}

/** The status line of a layer's reading: the colours a show operator reads at a glance. */
function shownReading(reading: LayerReading): NodeStatus {
  const layer = layerName(reading.layer);
  switch (reading.status) {
    case 'not-offered':
      return { fill: 'grey', shape: 'ring', text: say('status.layersNotOffered') };
    case 'offline':
      return { fill: 'grey', shape: 'ring', text: say('status.layersNoLink') };
    case 'missing':
      return { fill: 'red', shape: 'ring', text: say('status.noSuchLayer', { layer }) };
    case 'stale':
      return { fill: 'yellow', shape: 'ring', text: say('status.layerStale', { state: reading.state ?? '' }) };
    case 'online':
      break;
  }
  const state = reading.state ?? '';
  if (state === 'running') return { fill: 'green', shape: 'dot', text: say('status.workloadRunning') };
  if (state === 'error') return { fill: 'red', shape: 'ring', text: reading.message ? say('status.workloadErrorWhy', { message: reading.message }) : say('status.workloadError') };
  if (state === 'stopped') return { fill: 'grey', shape: 'dot', text: say('status.workloadStopped') };
  if (state === 'starting') return { fill: 'yellow', shape: 'dot', text: say('status.workloadStarting') };
  return { fill: 'yellow', shape: 'dot', text: state };
}

/** A layer the node is watching: what it was asked for, and what it last saw of it. */
interface Watching {
  key: string;
  ref: Ref;
  stop: () => void;
  last?: LayerReading;
  /** A missing layer is said once (to the log and Catch) until it is listed again. */
  toldMissing: boolean;
}

function startRenderstream(RED: NodeAPI, node: Node<never>, def: NodeDef): void {
  const armed = def.armed === true;
  const status = new StatusLine(node, { live: true, ...(armed ? { standing: say('status.armed') } : {}) });
  showServerState(RED, node, def, status, armed ? { connectedFill: 'yellow' } : {});
  let watching: Watching | undefined;
  let start: NodeJS.Immediate | undefined;

  const seen = (current: Watching, snapshot: LayersSnapshot): void => {
    if (work.closing || watching !== current) return;
    const reading = layerReading(snapshot, current.ref);
    const before = current.last;
    current.last = reading;
    status.show(shownReading(reading));
    if (reading.status === 'missing' && !current.toldMissing) {
      current.toldMissing = true;
      const text = say('error.noSuchLayer', { layer: layerName(current.ref), layers: reading.listed.join(', ') || say('error.noLayers') });
      node.error(text, { topic: 'setup', payload: text } satisfies NodeMessage);
    }
    if (reading.status !== 'missing') current.toldMissing = false;
    if (before && verdictOf(before) === verdictOf(reading)) return;
    const previous = before ? { state: before.state, status: before.status } : null;
    const topic = layerName(reading.layer);
    const payload = { layer: reading.layer, status: reading.status, state: reading.state, ...(reading.message ? { message: reading.message } : {}), previous };
    node.send([null, { topic, payload }]);
  };

  /**
   * Watches `ref` unless the node already does. Without a usable server nothing is watched: the server state
   * under the node shows why, and said it in the log once.
   */
  const watch = (ref: Ref): void => {
    const key = JSON.stringify(ref);
    if (watching?.key === key) return;
    let connection;
    try {
      connection = serverConnection(RED, def.server);
    } catch {
      return;
    }
    if (connection.problem) return;
    watching?.stop();
    const current: Watching = { key, ref, stop: () => undefined, toldMissing: false };
    watching = current;
    status.connecting();
    current.stop = connection.watchLayers((snapshot) => seen(current, snapshot));
  };

  const work = handleInput(
    node,
    status,
    async (msg, { send, call }) => {
      const server = serverConnection(RED, def.server);
      const props = new MessageProperties(RED, node, def, msg);
      const word = await props.text('operation');
      if (word === undefined) throw missing('operation', 'operation');
      const operation = layerOperationNamed(word);
      if (!operation) throw sayingError(InvalidInputError, 'error.notLayerOperation', { value: word, choices: LAYER_OPERATIONS.join(', ') });
      // The same confirmation failover asks for: consumed, so it arms this one command.
      if (LAYER_OPERATIONS_CONFIRMED.includes(operation) && !takeConfirmation(msg) && !armed) {
        throw sayingError(ConfirmationRequiredError, 'error.failoverNotConfirmed', { operation });
      }
      const layer = await props.requiredRef('layer');
      // Confirmed above when the operation is guarded.
      await server.client.renderstream.operate(operation, layer, { ...call, confirm: true });
      watch(layer);
      msg.payload = { operation, layer };
      status.ok(`${operation} ${layerName(layer)}`);
      send([msg, null]);
    },
    () => {
      if (start) clearImmediate(start);
      watching?.stop();
      watching = undefined;
    },
  );

  // Watched once the whole flow has started, so a Catch node later in the flow hears of a layer that is not there.
  start = setImmediate(() => {
    start = undefined;
    void work.track(
      async () => {
        // A layer set in the node (or in a context or env the node reads) is watched from the deploy on; one left
        // to msg.layer from the first msg that names it.
        const layer = await new MessageProperties(RED, node, def, {}).ref('layer');
        if (layer) watch(layer);
        else if (!watching) status.show({ fill: 'grey', shape: 'ring', text: say('status.needsLayer') });
      },
      (error) => {
        status.failed(error);
        node.error(inRuntimeLanguage(error), { topic: 'setup', payload: sayError(error) } satisfies NodeMessage);
      },
    );
  });
}
