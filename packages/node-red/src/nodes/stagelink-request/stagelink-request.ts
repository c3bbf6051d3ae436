import { ConfirmationRequiredError, endpointNamed, InvalidInputError, needsConfirmation, type EndpointInput } from '@stagelink/core';
import { sayingError } from '../../shared/error-words.js';
import { serverConnection } from '../../shared/connections.js';
import { machineOf, noMachine } from '../../shared/hardware-target.js';
import { handleInput } from '../../shared/input.js';
import { MessageProperties, takeConfirmation } from '../../shared/msg-override.js';
import type { Node, NodeAPI, NodeDef } from '../../shared/node-red.js';
import { showServerState } from '../../shared/server-status.js';
import { StatusLine } from '../../shared/status.js';
import { useRuntime } from '../../shared/words.js';
import { catalogueEndpointAt, commandByPath, notDescribedHere, resultOf } from './described-command.js';

/**
 * `stagelink-request`: any endpoint of the spec, chosen from core's endpoint catalogue (the editor's list is
 * generated from it at build time, then marked with what the connected director's own description offers), or a
 * command only that description offers, named by its path. The body comes from `msg.payload` by default; query and path parameters
 * from the node or `msg.query` / `msg.params`. Guarded endpoints (SMC clear, power off, ...) and failover
 * and restore need `msg.confirm === true` on the message, which this node consumes. Hardware endpoints go to the
 * machine named by the node's Machine or `msg.machine`; hardware writes without one are refused unless the server
 * has its one SMC.
 */
export default function register(RED: NodeAPI): void {
  useRuntime(RED);
  RED.nodes.registerType('stagelink-request', function StagelinkRequest(this: Node<never>, def: NodeDef): void {
    RED.nodes.createNode(this, def);
    startRequest(RED, this, def);
  });
}

function startRequest(RED: NodeAPI, node: Node<never>, def: NodeDef): void {
  const status = new StatusLine(node);
  showServerState(RED, node, def, status);

  handleInput(node, status, async (msg, { send, call }) => {
    const server = serverConnection(RED, def.server);
    const props = new MessageProperties(RED, node, def, msg);
    const endpoint = await props.requiredText('endpoint');
    const command = commandByPath(endpoint);
    const spec = endpointNamed(endpoint) ?? (command && catalogueEndpointAt(command));
    if (!spec) {
      if (!command) throw sayingError(InvalidInputError, 'error.notEndpoint', { value: endpoint });
      // A command only the director's description offers: core checks its body against that description.
      const body = bodyOf(await props.value('body'));
      const answer = await server.client.callDescribed(command, body, call).catch((error: unknown) => {
        throw notDescribedHere(error, endpoint);
      });
      msg.payload = resultOf(answer);
      status.ok(command.path.replace(/^\/api\/(session|service)\//, ''));
      send(msg);
      return;
    }
    // Core refuses its guarded endpoints unconfirmed; the node refuses those that move the show the same way.
    const confirmed = needsConfirmation(spec) && takeConfirmation(msg);
    if (spec.movesShow && !confirmed) {
      throw sayingError(ConfirmationRequiredError, 'error.endpointNotConfirmed', { endpoint: `${spec.method} ${spec.path} (${spec.summary})` });
    }
    const query = spec.query ? await objectOf(props, 'query') : undefined;
    const params = spec.path.includes('{') ? await objectOf(props, 'params') : undefined;
    const body = spec.method === 'POST' ? bodyOf(await props.value('body')) : undefined;
    const input: EndpointInput = {
      body,
      query,
      params: params && Object.fromEntries(Object.entries(params).map(([key, item]) => [key, String(item)])),
    };
    // A hardware endpoint acts on the machine it names (Machine, else msg.machine), never on the director.
    const machine = spec.family === 'hardware' ? await machineOf(props) : undefined;
    if (spec.family === 'hardware' && spec.method !== 'GET' && machine === undefined && !server.hasSmc) throw noMachine(`${spec.method} ${spec.path} (${spec.summary})`);
    const result = await server.client.call(spec, input, { ...call, confirm: confirmed, ...(machine === undefined ? {} : { machine }) });
    msg.payload = result;
    // The operation alone fits the status line; the node's label names the endpoint.
    status.ok(spec.operation);
    send(msg);
  });
}

/**
 * Every body in the spec is a JSON object or array. Anything else (an inject's timestamp used as a trigger)
 * means "no body" rather than a request the server would refuse.
 */
function bodyOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? value : undefined;
}

/** Query and path parameters: a JSON object of strings, numbers or booleans. */
async function objectOf(props: MessageProperties, name: 'query' | 'params'): Promise<Record<string, string | number | boolean> | undefined> {
  let value = await props.value(name);
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw sayingError(InvalidInputError, 'error.notJsonObject', { name });
    }
  }
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw sayingError(InvalidInputError, 'error.notObject', { name });
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined && item !== null && item !== '');
  for (const [key, item] of entries) {
    if (!['string', 'number', 'boolean'].includes(typeof item)) throw sayingError(InvalidInputError, 'error.notScalar', { name: `${name}.${key}` });
  }
  return Object.fromEntries(entries) as Record<string, string | number | boolean>;
}
