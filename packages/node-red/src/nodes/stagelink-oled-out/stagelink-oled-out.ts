import { OLED_MAX_MESSAGE_LENGTH } from '@stagelink/core';
import { serverConnection } from '../../shared/connections.js';
import { hardwareFor, machineOf } from '../../shared/hardware-target.js';
import { handleInput } from '../../shared/input.js';
import { MessageProperties } from '../../shared/msg-override.js';
import type { Node, NodeAPI, NodeDef } from '../../shared/node-red.js';
import { showServerState } from '../../shared/server-status.js';
import { StatusLine } from '../../shared/status.js';
import { say, useRuntime } from '../../shared/words.js';

/**
 * `stagelink-oled-out`: shows a notification on the front screen of the machine it names (its Machine setting,
 * else `msg.machine`; else the server's one SMC; never the session's director): title, message (from
 * `msg.payload` by default), priority, and optionally the display time. Says in its status when the device cut
 * the message to its 200 characters.
 */
export default function register(RED: NodeAPI): void {
  useRuntime(RED);
  RED.nodes.registerType('stagelink-oled-out', function StagelinkOledOut(this: Node<never>, def: NodeDef): void {
    RED.nodes.createNode(this, def);
    startOledOut(RED, this, def);
  });
}

function startOledOut(RED: NodeAPI, node: Node<never>, def: NodeDef): void {
  const status = new StatusLine(node);
  showServerState(RED, node, def, status);

  handleInput(node, status, async (msg, { send, call }) => {
    const server = serverConnection(RED, def.server);
    const props = new MessageProperties(RED, node, def, msg);
    const message = await props.requiredText('message');
    const title = (await props.text('title')) ?? '';
    const priority = (await props.number('priority')) ?? 0;
    const displayTime = await props.number('displayTime', say('error.whatDisplayTime'));
    const machine = await machineOf(props);
    const oled = hardwareFor(server, machine, say('error.whatOled')).oled;
    // Core refuses a display time of 0 or less before sending either request.
    if (displayTime !== undefined) await oled.setDisplayTime(displayTime, call);
    const result = await oled.notify({ title, message, priority }, call);
    msg.payload = result;
    msg.truncated = result.truncated;
    const what = title || message;
    if (result.truncated) {
      status.warning(machine === undefined ? say('status.cut', { max: OLED_MAX_MESSAGE_LENGTH, length: message.length }) : say('status.cutOn', { machine, max: OLED_MAX_MESSAGE_LENGTH, length: message.length }));
    } else {
      status.ok(machine === undefined ? say('status.shown', { what }) : say('status.shownOn', { machine, what }));
    }
    send(msg);
  });
}
