import { InvalidInputError, StagelinkError } from '../errors.js';
import type { CallOptions } from './endpoint-caller.js';
import type { TransportApi } from './transport.js';
import type { Ref } from './types.js';

/** What kind of value each field of a transport command is. */
export const TRANSPORT_FIELDS = {
  playmode: 'text',
  track: 'ref',
  section: 'text',
  note: 'text',
  tagType: 'text',
  tagValue: 'text',
  allowGlobalJump: 'boolean',
  time: 'number',
  timecode: 'text',
  ignoreTags: 'boolean',
  frame: 'number',
  volume: 'number',
  brightness: 'number',
  engaged: 'boolean',
} as const;

export type TransportField = keyof typeof TRANSPORT_FIELDS;

export interface TransportCommandShape {
  required: readonly TransportField[];
  optional: readonly TransportField[];
  /** Acts on the current track; a `track` given with it is gone to first (see runTransportCommand). */
  withinTrack?: boolean;
}

const cue = (...required: TransportField[]): TransportCommandShape => ({ required, optional: ['playmode'] });
const plain: TransportCommandShape = { required: [], optional: [] };
const setting = (field: TransportField): TransportCommandShape => ({ required: [field], optional: [] });

/**
 * Every transport command of the spec by its path name (the `command` of Node-RED nodes and Stream Deck keys),
 * with the fields it needs: front ends read those fields from their own settings and send them with
 * `ms.transport.send`.
 */
export const TRANSPORT_COMMANDS = {
  play: plain,
  stop: plain,
  playsection: plain,
  playloopsection: plain,
  returntostart: plain,
  gototrack: cue('track'),
  gotonexttrack: cue(),
  gotoprevtrack: cue(),
  gotosection: { ...cue('section'), withinTrack: true },
  gotonextsection: cue(),
  gotoprevsection: cue(),
  gotonote: { ...cue('note'), withinTrack: true },
  gototag: { required: ['tagType', 'tagValue'], optional: ['allowGlobalJump', 'playmode'] },
  gototime: cue('time'),
  gototimecode: { required: ['timecode'], optional: ['ignoreTags', 'playmode'] },
  gotoframe: cue('frame'),
  volume: setting('volume'),
  brightness: setting('brightness'),
  engaged: setting('engaged'),
} as const satisfies Record<string, TransportCommandShape>;

export type TransportCommand = keyof typeof TRANSPORT_COMMANDS;

export const TRANSPORT_COMMAND_NAMES = Object.keys(TRANSPORT_COMMANDS) as TransportCommand[];

export function isTransportCommand(value: unknown): value is TransportCommand {
  return typeof value === 'string' && Object.hasOwn(TRANSPORT_COMMANDS, value);
}

/** The fields a command may carry; which ones it needs is in TRANSPORT_COMMANDS. */
export interface TransportCommandFields {
  playmode?: string;
  track?: Ref;
  section?: string;
  note?: string;
  tagType?: string;
  tagValue?: string;
  allowGlobalJump?: boolean;
  time?: number;
  timecode?: string;
  ignoreTags?: boolean;
  frame?: number;
  volume?: number;
  brightness?: number;
  engaged?: boolean;
}

/** The value of a field the command needs; a clear InvalidInputError when it is missing. */
export function requiredField<F extends TransportField>(
  command: TransportCommand,
  fields: TransportCommandFields,
  field: F,
): NonNullable<TransportCommandFields[F]> {
  const value = fields[field];
  if (value === undefined || value === null || value === '') {
    throw new InvalidInputError(`The ${command} command needs ${field}: nothing was sent.`);
  }
  return value;
}

/** Whether the command acts on the current track, so a key or node may name the track to go to first. */
export function isWithinTrack(command: TransportCommand): boolean {
  const shape: TransportCommandShape = TRANSPORT_COMMANDS[command];
  return shape.withinTrack === true;
}

/**
 * Sends a transport command as a key or a node means it. The spec's gotosection and gotonote act on the
 * current track, so when a track is given with them the transports go to that track first (gototrack with no
 * playmode: playing or stopped stays as it was), then to the section or note with the cue's playmode. When
 * the track step fails nothing more is sent; either step's error says which step it was.
 */
export async function runTransportCommand(
  transport: Pick<TransportApi, 'send'>,
  command: TransportCommand,
  transports: Ref | readonly Ref[],
  fields: TransportCommandFields = {},
  options?: CallOptions,
): Promise<void> {
  const { track, ...rest } = fields;
  if (!isTransportCommand(command) || !isWithinTrack(command) || track === undefined) {
    return transport.send(command, transports, fields, options);
  }
  for (const field of TRANSPORT_COMMANDS[command].required) requiredField(command, fields, field);
  const trackName = JSON.stringify(track.name ?? track.uid);
  const target = command === 'gotosection' ? `section ${String(rest.section)}` : `note ${JSON.stringify(rest.note)}`;
  try {
    await transport.send('gototrack', transports, { track }, options);
  } catch (error) {
    throw withStep(error, `Going to track ${trackName} failed, so ${target} was not sent`);
  }
  try {
    await transport.send(command, transports, rest, options);
  } catch (error) {
    throw withStep(error, `Went to track ${trackName}, but going to ${target} failed`);
  }
}

/** The same error (its class tells offline from refused), its message prefixed with the step that failed. */
function withStep(error: unknown, step: string): Error {
  if (!(error instanceof Error)) return new StagelinkError(`${step}: ${String(error)}`, undefined, { cause: error });
  error.message = `${step}: ${error.message}`;
  return error;
}
