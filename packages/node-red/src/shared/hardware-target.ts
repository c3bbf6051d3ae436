import { HardwareTargetError, type HardwareApi } from '@stagelink/core';
import type { ServerConnection } from './connections.js';
import { sayingError } from './error-words.js';
import type { MessageProperties } from './msg-override.js';

/**
 * The machine a hardware node acts on: its Machine setting, else `msg.machine`; a hostname as the session lists it
 * (`ACTOR01`). Undefined when neither names one.
 */
export function machineOf(props: MessageProperties): Promise<string | undefined> {
  return props.text('machine');
}

/**
 * The hardware API of the machine a msg names, else of the server's one SMC (`smcHost`). With neither, refused:
 * a hardware write is never sent to the session's address, which follows the director.
 */
export function hardwareFor(server: ServerConnection, machine: string | undefined, what: string): HardwareApi {
  if (machine !== undefined) return server.client.hardwareOf(machine);
  if (server.hasSmc) return server.client.hardware;
  throw noMachine(what);
}

/** Says how to name the machine in Node-RED's words; nothing was sent. */
export function noMachine(what: string): HardwareTargetError {
  return sayingError(HardwareTargetError, 'error.noMachine', { what });
}
