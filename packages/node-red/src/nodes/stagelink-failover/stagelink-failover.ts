import { ConfirmationRequiredError, FAILOVER_OPERATIONS, failoverOperationNamed, InvalidInputError, type CallOptions, type FailoverOperation, type MediaServer } from '@stagelink/core';
import { sayingError } from '../../shared/error-words.js';
import { fromAnswer } from '../../shared/answer-shape.js';
import { serverConnection } from '../../shared/connections.js';
import { handleInput } from '../../shared/input.js';
import { MessageProperties, takeConfirmation } from '../../shared/msg-override.js';
import type { Node, NodeAPI, NodeDef } from '../../shared/node-red.js';
import { showServerState } from '../../shared/server-status.js';
import { StatusLine } from '../../shared/status.js';
import { say, useRuntime } from '../../shared/words.js';

/**
 * `stagelink-failover`: fails over or restores an actor machine, restores default routing, or reads the
 * failover settings and understudy targets. Failover and restore need `msg.confirm === true` (consumed here,
 * so it arms this one command) unless the node is set to "armed": a stray inject must not move a show.
 */
export default function register(RED: NodeAPI): void {
  useRuntime(RED);
  RED.nodes.registerType('stagelink-failover', function StagelinkFailover(this: Node<never>, def: NodeDef): void {
    RED.nodes.createNode(this, def);
    startFailover(RED, this, def);
  });
}

function startFailover(RED: NodeAPI, node: Node<never>, def: NodeDef): void {
  const armed = def.armed === true;
  const status = new StatusLine(node, armed ? { standing: say('status.armed') } : {});
  status.standingWarning();
  // An armed node sends failover on every msg: it stays yellow while connected, a warning at a glance.
  showServerState(RED, node, def, status, armed ? { connectedFill: 'yellow' } : {});

  handleInput(node, status, async (msg, { send, call }) => {
    // When the command was given, on the msg sent on and the one a Catch node gets: a show log stamps it with this.
    msg.takenAt = Date.now();
    const server = serverConnection(RED, def.server);
    const props = new MessageProperties(RED, node, def, msg);
    const name = (await props.text('operation')) ?? 'settings';
    const operation = failoverOperationNamed(name);
    if (!operation) {
      throw sayingError(InvalidInputError, 'error.notFailoverOperation', { value: name, choices: Object.keys(FAILOVER_OPERATIONS).join(', ') });
    }
    // What moves the show to other machines is sent only when confirmed or when the node is armed.
    if (FAILOVER_OPERATIONS[operation].movesShow && !takeConfirmation(msg) && !armed) {
      throw sayingError(ConfirmationRequiredError, 'error.failoverNotConfirmed', { operation });
    }
    const { payload, summary } = await run(server.client, operation, props, call);
    msg.payload = payload;
    status.ok(summary);
    send(msg);
  });
}

async function run(
  client: MediaServer,
  operation: FailoverOperation,
  props: MessageProperties,
  options: CallOptions,
): Promise<{ payload: unknown; summary: string }> {
  switch (operation) {
    case 'failovermachine':
    case 'restoremachine': {
      const machine = await props.requiredRef('machine');
      if (operation === 'failovermachine') await client.failover.failoverMachine(machine, options);
      else await client.failover.restoreMachine(machine, options);
      const words = operation === 'failovermachine' ? 'status.failedOver' : 'status.restored';
      return { payload: { operation, machine }, summary: say(words, { machine: machine.name ?? machine.uid ?? '' }) };
    }
    case 'applydefaultrouting':
      await client.failover.applyDefaultRouting(options);
      return { payload: { operation }, summary: say('status.defaultRouting') };
    case 'settings': {
      const settings = await client.failover.settings(options);
      return { payload: settings, summary: say('status.preset', { preset: fromAnswer(operation, client.origin, () => String(settings.currentPreset)) }) };
    }
    case 'understudytargets': {
      const targets = await client.failover.understudyTargets(options);
      return { payload: targets, summary: say('status.understudyTargets', { count: fromAnswer(operation, client.origin, () => Object.keys(targets ?? {}).length) }) };
    }
  }
}
