import { InvalidInputError } from '../errors.js';
import type { Ref } from './types.js';

/**
 * What kind of value each field of a transport command is. `index` is a 0-based whole number, given as a number
 * or as decimal text.
 */
export const TRANSPORT_FIELDS = {
  playmode: 'text',
  track: 'ref',
  section: 'index',
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
  speed: 'number',
} as const;

export type TransportField = keyof typeof TRANSPORT_FIELDS;

export interface TransportCommandShape {
  required: readonly TransportField[];
  optional: readonly TransportField[];
}

const cue = (...required: TransportField[]): TransportCommandShape => ({ required, optional: ['playmode'] });
/**
 * The spec's gotosection and gotonote act on the current track: a `track` given with them is gone to first
 * (see TransportApi.send), so a key or a node can name the section's own track.
 */
const withinTrack = (...required: TransportField[]): TransportCommandShape => ({ required, optional: ['playmode', 'track'] });
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
  gotosection: withinTrack('section'),
  gotonextsection: cue(),
  gotoprevsection: cue(),
  gotonote: withinTrack('note'),
  gototag: { required: ['tagType', 'tagValue'], optional: ['allowGlobalJump', 'playmode'] },
  gototime: cue('time'),
  gototimecode: { required: ['timecode'], optional: ['ignoreTags', 'playmode'] },
  gotoframe: cue('frame'),
  volume: setting('volume'),
  brightness: setting('brightness'),
  engaged: setting('engaged'),
  speed: setting('speed'),
} as const satisfies Record<string, TransportCommandShape>;

export type TransportCommand = keyof typeof TRANSPORT_COMMANDS;

export const TRANSPORT_COMMAND_NAMES = Object.keys(TRANSPORT_COMMANDS) as TransportCommand[];

export function isTransportCommand(value: unknown): value is TransportCommand {
  return typeof value === 'string' && Object.hasOwn(TRANSPORT_COMMANDS, value);
}

/** What each command is called where an operator chooses one (the Stream Deck inspector, logs). */
export const TRANSPORT_COMMAND_LABELS: Readonly<Record<TransportCommand, string>> = {
  play: 'Play',
  stop: 'Stop',
  playsection: 'Play to end of section',
  playloopsection: 'Loop section',
  returntostart: 'Return to start',
  gototrack: 'Go to track',
  gotonexttrack: 'Next track',
  gotoprevtrack: 'Previous track',
  gotosection: 'Go to section',
  gotonextsection: 'Next section',
  gotoprevsection: 'Previous section',
  gotonote: 'Go to note',
  gototag: 'Go to tag',
  gototime: 'Go to time',
  gototimecode: 'Go to timecode',
  gotoframe: 'Go to frame',
  volume: 'Set volume',
  brightness: 'Set brightness',
  engaged: 'Engage / disengage',
  speed: 'Set speed',
};

/** How a message asking for a field names it, with what the field takes where that is not obvious. */
export const TRANSPORT_FIELD_LABELS: Readonly<Record<TransportField, string>> = {
  playmode: 'playmode',
  track: 'track',
  section: 'section (its index: 0, 1, 2, ...)',
  note: 'note',
  tagType: 'tag type',
  tagValue: 'tag value',
  allowGlobalJump: 'global jump choice',
  time: 'time (a number)',
  timecode: 'timecode',
  ignoreTags: 'ignore-tags choice',
  frame: 'frame (a number)',
  volume: 'volume (0 to 1)',
  brightness: 'brightness (0 to 1)',
  engaged: 'engaged choice',
  speed: 'speed (1 is normal)',
};

/** The fields a command may carry; which ones it needs is in TRANSPORT_COMMANDS. */
export interface TransportCommandFields {
  playmode?: string;
  track?: Ref;
  /** 0-based section index; a section's name is a note: use gotonote. */
  section?: number | string;
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
  speed?: number;
}

export type TransportFieldKind = (typeof TRANSPORT_FIELDS)[TransportField];

/** One field a command takes: what kind of value it is, and whether the command needs it. */
export interface TransportFieldUse {
  field: TransportField;
  kind: TransportFieldKind;
  required: boolean;
}

/** The fields a command takes, those it needs first. */
export function transportFieldsOf(command: TransportCommand): readonly TransportFieldUse[] {
  const { required, optional }: TransportCommandShape = TRANSPORT_COMMANDS[command];
  const use = (isRequired: boolean) => (field: TransportField) => ({ field, kind: TRANSPORT_FIELDS[field], required: isRequired });
  return [...required.map(use(true)), ...optional.map(use(false))];
}

/** A command's fields as a front end read them from its settings, or the first field it needs that was not set. */
export type TransportFieldsReading = { fields: TransportCommandFields; missing?: never } | { missing: TransportField };

/**
 * Reads the fields a command takes from a front end's own settings (a node's properties and msg, a key's
 * settings): `read` gives a field's value as its kind, or undefined when it is not set. Each front end words
 * a missing field in its host's terms, so a missing one is returned, not thrown.
 */
export function readTransportFields(command: TransportCommand, read: (field: TransportField, kind: TransportFieldKind) => unknown): TransportFieldsReading {
  const fields: Record<string, unknown> = {};
  for (const { field, kind, required } of transportFieldsOf(command)) {
    const value = read(field, kind);
    if (value !== undefined) fields[field] = value;
    else if (required) return { missing: field };
  }
  return { fields: fields satisfies TransportCommandFields };
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
