import { endpoints, FAILOVER_MACHINE_OPERATIONS, FAILOVER_OPERATIONS, isTransportCommand, needsConfirmation, PLAYMODE_COMMANDS, playmodeToSend, readTransportFields, reasonOf, TRANSPORT_COMMAND_NAMES, transportFieldsOf } from '@stagelink/core';
import type { FailoverOperation, Ref, RequestedPlaymode, TransportCommand, TransportCommandFields, TransportField, TransportFieldKind } from '@stagelink/core';
import { COMMAND_REFUSALS, CommandRefusedError } from './command-errors.js';

const asCommand = (operation: FailoverOperation) => ({ needsMachine: FAILOVER_MACHINE_OPERATIONS.includes(operation) });

/**
 * Failover operations a cue topic may carry, by whether they name a machine. Those that move the show to other
 * machines need `confirm: true` (core's `needsConfirmation`, as every front end asks).
 */
export const FAILOVER_COMMANDS = {
  failovermachine: asCommand('failovermachine'),
  restoremachine: asCommand('restoremachine'),
  applydefaultrouting: asCommand('applydefaultrouting'),
} as const satisfies Partial<Record<FailoverOperation, unknown>>;

export type FailoverCommand = keyof typeof FAILOVER_COMMANDS;

/**
 * What `cmd/renderstream/<layer>/<op>` may ask of a layer's workload, by core's endpoint: those core guards (`stop`,
 * the layer goes dark) need `confirm: true`, as failover does.
 */
export const RENDERSTREAM_COMMANDS = {
  start: endpoints.startLayers,
  stop: endpoints.stopLayers,
  restart: endpoints.restartLayers,
  sync: endpoints.syncLayers,
} as const;

export type RenderStreamCommand = keyof typeof RENDERSTREAM_COMMANDS;

export type BridgeCommand =
  | { kind: 'transport'; command: TransportCommand; transports: Ref[]; fields: TransportCommandFields }
  | { kind: 'failover'; operation: FailoverCommand; machine?: Ref }
  /** `layer`: the topic segment naming the layer, matched to the director's layers when the command runs. */
  | { kind: 'renderstream'; operation: RenderStreamCommand; layer: string };

/** What every command may carry besides its own fields. */
export interface CommandEnvelope {
  id?: string;
  /** When the sender made the command, ms since the epoch. */
  sentAt?: number;
}

export const MAX_PAYLOAD_BYTES = 64 * 1024;
const MAX_ID_LENGTH = 200;
const MAX_TRANSPORTS = 64;
const MAX_TEXT_LENGTH = 1000;

const malformed = (message: string) => new CommandRefusedError(COMMAND_REFUSALS.malformed, message);

/** The JSON object of a command message; a clear refusal for anything else. */
export function readPayload(payload: Buffer): Record<string, unknown> {
  if (payload.length > MAX_PAYLOAD_BYTES) throw malformed(`The command is ${payload.length} bytes: at most ${MAX_PAYLOAD_BYTES} are taken.`);
  let body: unknown;
  try {
    body = JSON.parse(payload.toString('utf8'));
  } catch {
    throw malformed('The command is not JSON: send an object such as {"transport": "main", "id": "...", "sentAt": 1700000000000}.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw malformed(`The command must be a JSON object (got ${Array.isArray(body) ? 'an array' : body === null ? 'null' : typeof body}).`);
  }
  return body as Record<string, unknown>;
}

/** The id, when it is one (text or a number, up to 200 characters); undefined when absent or unusable. */
export function idOf(body: Record<string, unknown> | undefined): string | undefined {
  const id = body && Object.hasOwn(body, 'id') ? body.id : undefined;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  if (typeof id === 'string' && id !== '' && id.length <= MAX_ID_LENGTH) return id;
  return undefined;
}

export function readEnvelope(body: Record<string, unknown>): CommandEnvelope {
  const envelope: CommandEnvelope = {};
  if (Object.hasOwn(body, 'id')) {
    const id = idOf(body);
    if (id === undefined) throw malformed(`id must be text of 1 to ${MAX_ID_LENGTH} characters or a number (got ${describe(body.id)}).`);
    envelope.id = id;
  }
  if (Object.hasOwn(body, 'sentAt')) {
    const sentAt = body.sentAt;
    if (typeof sentAt !== 'number' || !Number.isFinite(sentAt) || sentAt <= 0) {
      throw malformed(`sentAt must be the time the command was made, in ms since the epoch (got ${describe(sentAt)}).`);
    }
    envelope.sentAt = sentAt;
  }
  return envelope;
}

/**
 * The command a topic below `cmd/` and its payload ask for, checked whole before anything is sent: the command
 * exists, every field is one the command takes and of the kind core's TRANSPORT_FIELDS gives, and what it needs
 * is there. Topics take each command's saved name only, never an alias such as `gotoTrack`: a broker's ACL
 * allows or denies topics, and an alias would be a way around a denied one.
 */
export function parseCommand(path: string, body: Record<string, unknown>): BridgeCommand {
  if (path.startsWith('renderstream/')) return renderStreamCommand(path, body);
  const [family, name, ...rest] = path.split('/');
  if (rest.length > 0 || !name) throw unknownCommand(path);
  if (family === 'transport') return transportCommand(name, body);
  if (family === 'failover') return failoverCommand(name, body);
  throw unknownCommand(path);
}

function unknownCommand(path: string): CommandRefusedError {
  return new CommandRefusedError(
    COMMAND_REFUSALS.unknownCommand,
    `cmd/${path} is not a command: use cmd/transport/<${TRANSPORT_COMMAND_NAMES.join('|')}>, cmd/failover/<${Object.keys(FAILOVER_OPERATIONS).join('|')}> or cmd/renderstream/<layer>/<${Object.keys(RENDERSTREAM_COMMANDS).join('|')}>.`,
  );
}

const ENVELOPE_FIELDS = ['id', 'sentAt'];

/**
 * `cmd/transport/playmode` with `playmode`: the command of that playmode (core's PLAYMODE_COMMANDS), for pickers
 * that publish a value to one topic (Home Assistant's select). It runs play, playsection, playloopsection or stop:
 * a broker ACL that denies one of those must deny this topic too.
 */
function playmodeCommand(body: Record<string, unknown>): BridgeCommand {
  refuseUnknownKeys(body, ['transport', 'playmode', ...ENVELOPE_FIELDS], 'playmode takes transport and playmode (and id, sentAt)');
  let playmode: RequestedPlaymode;
  try {
    playmode = playmodeToSend(body.playmode);
  } catch (error) {
    throw malformed(reasonOf(error));
  }
  if (playmode === 'NotSet') throw malformed(`playmode ${playmode} runs no command: use one of ${Object.keys(PLAYMODE_COMMANDS).join(', ')}.`);
  return { kind: 'transport', command: PLAYMODE_COMMANDS[playmode], transports: transportRefs(body.transport), fields: {} };
}

function transportCommand(name: string, body: Record<string, unknown>): BridgeCommand {
  if (name === 'playmode') return playmodeCommand(body);
  if (!isTransportCommand(name)) {
    throw new CommandRefusedError(COMMAND_REFUSALS.unknownCommand, `"${name}" is not a transport command: use one of ${TRANSPORT_COMMAND_NAMES.join(', ')}.`);
  }
  const allowed = transportFieldsOf(name).map(({ field }) => field);
  refuseUnknownKeys(body, ['transport', ...ENVELOPE_FIELDS, ...allowed], `${name} takes transport${allowed.length ? `, ${allowed.join(', ')}` : ''} (and id, sentAt)`);
  const transports = transportRefs(body.transport);
  const reading = readTransportFields(name, (field, kind) => (Object.hasOwn(body, field) ? fieldValue(field, kind, body[field]) : undefined));
  if (reading.missing) throw malformed(`${name} needs ${reading.missing}: nothing was sent.`);
  return { kind: 'transport', command: name, transports, fields: reading.fields };
}

function failoverCommand(name: string, body: Record<string, unknown>): BridgeCommand {
  if (!Object.hasOwn(FAILOVER_COMMANDS, name)) {
    throw new CommandRefusedError(COMMAND_REFUSALS.unknownCommand, `"${name}" is not a failover operation: use one of ${Object.keys(FAILOVER_COMMANDS).join(', ')}.`);
  }
  const operation = name as FailoverCommand;
  const { needsMachine } = FAILOVER_COMMANDS[operation];
  const guarded = needsConfirmation(FAILOVER_OPERATIONS[operation]);
  refuseUnknownKeys(body, [...ENVELOPE_FIELDS, ...(needsMachine ? ['machine'] : []), ...(guarded ? ['confirm'] : [])], `${operation} takes ${needsMachine ? 'machine, confirm, ' : ''}id and sentAt`);
  if (guarded && body.confirm !== true) {
    throw new CommandRefusedError(COMMAND_REFUSALS.unconfirmed, `${operation} was not sent: it moves the show to other machines, so it needs "confirm": true.`);
  }
  if (!needsMachine) return { kind: 'failover', operation };
  if (body.machine === undefined) throw malformed(`${operation} needs machine: a machine name or {"name"} or {"uid"}.`);
  return { kind: 'failover', operation, machine: ref(body.machine, 'machine') };
}

/**
 * `cmd/renderstream/<layer>/<op>`: the layer is one topic segment (its name as the layer's own topic spells it), so
 * a broker's ACL can allow or deny each layer and operation by topic.
 */
function renderStreamCommand(path: string, body: Record<string, unknown>): BridgeCommand {
  const [, layer, operation, ...rest] = path.split('/');
  if (!layer || operation === undefined || rest.length > 0) {
    throw new CommandRefusedError(COMMAND_REFUSALS.unknownCommand, `cmd/${path} is not a command: use cmd/renderstream/<layer>/<${Object.keys(RENDERSTREAM_COMMANDS).join('|')}>.`);
  }
  if (!Object.hasOwn(RENDERSTREAM_COMMANDS, operation)) {
    throw new CommandRefusedError(COMMAND_REFUSALS.unknownCommand, `"${operation}" is not a RenderStream layer operation: use one of ${Object.keys(RENDERSTREAM_COMMANDS).join(', ')}.`);
  }
  const op = operation as RenderStreamCommand;
  const guarded = needsConfirmation(RENDERSTREAM_COMMANDS[op]);
  refuseUnknownKeys(body, [...ENVELOPE_FIELDS, ...(guarded ? ['confirm'] : [])], `${op} takes ${guarded ? 'confirm, ' : ''}id and sentAt (the topic names the layer)`);
  if (guarded && body.confirm !== true) {
    throw new CommandRefusedError(COMMAND_REFUSALS.unconfirmed, `${op} was not sent: it takes the layer's content off the show, so it needs "confirm": true.`);
  }
  return { kind: 'renderstream', operation: op, layer };
}

function refuseUnknownKeys(body: Record<string, unknown>, allowed: readonly string[], what: string): void {
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) throw malformed(`Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.slice(0, 5).map((key) => JSON.stringify(key)).join(', ')}: ${what}.`);
}

function transportRefs(value: unknown): Ref[] {
  if (value === undefined) throw malformed('A transport command needs transport: a transport name, {"name"} or {"uid"}, or a list of them.');
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) throw malformed('transport is an empty list: name at least one transport.');
  if (items.length > MAX_TRANSPORTS) throw malformed(`transport lists ${items.length} transports: at most ${MAX_TRANSPORTS} are taken.`);
  return items.map((item) => ref(item, 'transport'));
}

/** A Ref: a name as text, or an object with `name` (text) and/or `uid` (decimal digits as text). */
function ref(value: unknown, what: string): Ref {
  if (typeof value === 'string') {
    if (value.trim() === '' || value.length > MAX_TEXT_LENGTH) throw malformed(`${what} must be a name of 1 to ${MAX_TEXT_LENGTH} characters.`);
    return { name: value };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed(`${what} must be a name, {"name"} or {"uid"} (got ${describe(value)}).`);
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length === 0 || keys.some((key) => key !== 'name' && key !== 'uid')) throw malformed(`${what} must be {"name": ...} or {"uid": ...} (got keys ${keys.map((key) => JSON.stringify(key)).join(', ') || 'none'}).`);
  const result: Ref = {};
  if (Object.hasOwn(object, 'name')) {
    if (typeof object.name !== 'string' || object.name.trim() === '' || object.name.length > MAX_TEXT_LENGTH) throw malformed(`${what}.name must be text (got ${describe(object.name)}).`);
    result.name = object.name;
  }
  if (Object.hasOwn(object, 'uid')) {
    if (typeof object.uid !== 'string' || !/^\d{1,20}$/.test(object.uid)) throw malformed(`${what}.uid must be decimal digits as text: uids do not fit a JSON number (got ${describe(object.uid)}).`);
    result.uid = object.uid;
  }
  return result;
}

/** One field, checked against the kind core's TRANSPORT_FIELDS gives it. */
function fieldValue(field: TransportField, kind: TransportFieldKind, value: unknown): unknown {
  switch (kind) {
    case 'text':
      if (typeof value !== 'string' || value.length > MAX_TEXT_LENGTH) throw malformed(`${field} must be text (got ${describe(value)}).`);
      return value;
    case 'ref':
      return ref(value, field);
    case 'index':
      if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
      if (typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value)) return value;
      throw malformed(`${field} must be a 0-based index, 0, 1, 2, ... (got ${describe(value)}).`);
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw malformed(`${field} must be a number (got ${describe(value)}).`);
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw malformed(`${field} must be true or false (got ${describe(value)}).`);
      return value;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return value.length > 40 ? `text of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  return `${value as string | number | boolean | bigint | undefined}`;
}
