import { StagelinkError } from '@stagelink/core';

/** Why the bridge refused a command before anything was sent: a stable code, as core's errors carry. */
export const COMMAND_REFUSALS = {
  /** Not JSON, not an object, an unknown or ill-typed field, a missing transport. */
  malformed: 'STAGELINK_BRIDGE_ERR_MALFORMED',
  /** No such command or operation under `cmd/`. */
  unknownCommand: 'STAGELINK_BRIDGE_ERR_UNKNOWN_COMMAND',
  /** Older than --max-command-age, or its age cannot be known. */
  tooOld: 'STAGELINK_BRIDGE_ERR_TOO_OLD',
  untimed: 'STAGELINK_BRIDGE_ERR_UNTIMED',
  /** A retained message on a command topic: it would fire whenever anything subscribes. */
  retained: 'STAGELINK_BRIDGE_ERR_RETAINED',
  /** A copy of a command this sender sent lately with the same id: the first one ran, the copy does not. */
  duplicate: 'STAGELINK_BRIDGE_ERR_DUPLICATE',
  /** A RenderStream command to a director without RenderStream: core's code for a command the build lacks. */
  notOffered: 'STAGELINK_ERR_NOT_OFFERED',
  /** A RenderStream command naming a layer the director does not list. */
  unknownLayer: 'STAGELINK_BRIDGE_ERR_UNKNOWN_LAYER',
  /** A guarded operation without `confirm: true`. */
  unconfirmed: 'STAGELINK_ERR_CONFIRMATION_REQUIRED',
} as const;

export type CommandRefusalCode = (typeof COMMAND_REFUSALS)[keyof typeof COMMAND_REFUSALS];

export class CommandRefusedError extends StagelinkError {
  override name = 'CommandRefusedError';
  override readonly code: CommandRefusalCode;

  constructor(code: CommandRefusalCode, message: string) {
    super(message);
    this.code = code;
  }
}
