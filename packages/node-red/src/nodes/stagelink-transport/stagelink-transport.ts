import { InvalidInputError, TRANSPORT_COMMAND_NAMES, transportCommandNamed } from '@stagelink/core';
import { sayingError } from '../../shared/error-words.js';
import { serverConnection } from '../../shared/connections.js';
import { handleInput } from '../../shared/input.js';
import { MessageProperties } from '../../shared/msg-override.js';
import type { Node, NodeAPI, NodeDef } from '../../shared/node-red.js';
import { showServerState } from '../../shared/server-status.js';
import { StatusLine } from '../../shared/status.js';
import { describeCue, sendTransportCommand } from './commands.js';
import { useRuntime } from '../../shared/words.js';

/**
 * `stagelink-transport`: sends one transport command of the spec (play, stop, goto*, volume, ...) to the
 * transport named or uid'd in the node or in `msg.transport`, and passes the msg on with what was sent.
 */
export default function register(RED: NodeAPI): void {
  useRuntime(RED);
  RED.nodes.registerType('stagelink-transport', function StagelinkTransport(this: Node<never>, def: NodeDef): void {
    RED.nodes.createNode(this, def);
    startTransport(RED, this, def);
  });
}

function startTransport(RED: NodeAPI, node: Node<never>, def: NodeDef): void {
  const status = new StatusLine(node);
  showServerState(RED, node, def, status);

  handleInput(node, status, async (msg, { send, call }) => {
    // When the cue was given, on the msg sent on and the one a Catch node gets: a show log stamps it with this.
    msg.takenAt = Date.now();
    const server = serverConnection(RED, def.server);
    const props = new MessageProperties(RED, node, def, msg);
    const name = await props.requiredText('command');
    const command = transportCommandNamed(name);
    if (!command) {
      throw sayingError(InvalidInputError, 'error.notCommand', { value: name, choices: TRANSPORT_COMMAND_NAMES.join(', ') });
    }
    const sent = await sendTransportCommand(server.client, command, props, call);
    msg.payload = sent;
    status.ok(describeCue(sent));
    send(msg);
  });
}
