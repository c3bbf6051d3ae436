import { isTransportCommand, needsConfirmation, transportFieldsOf, FAILOVER_OPERATIONS, type TransportFieldKind } from '@stagelink/core';
import { COMMAND_REFUSALS, CommandRefusedError } from './command-errors.js';
import { FAILOVER_COMMANDS, RENDERSTREAM_COMMANDS, type FailoverCommand, type RenderStreamCommand } from './commands.js';

/** An argument as decoded: OSC's int and float are numbers, `T`/`F` booleans, `N` null, a blob a Buffer. */
export type OscInArg = string | number | boolean | null | Uint8Array;

/** The command an OSC message asks for, as the command runner takes it (the path below `cmd/` and its body). */
export interface OscCommand {
  path: string;
  body: Record<string, unknown>;
}

const malformed = (message: string) => new CommandRefusedError(COMMAND_REFUSALS.malformed, message);

/**
 * The command of an OSC message to `<root>/transport/<transport>/<command>`, `<root>/failover/<operation>` or
 * `<root>/renderstream/<layer>/<op>`; undefined for an address outside those (not a command of this bridge).
 *
 * Arguments are either one JSON string (`{"id": ..., "sentAt": ..., <fields>}`, as an MQTT command's payload
 * without `transport`, which the address names) or the command's fields in order: those it needs first, then
 * those it may take, as core's `transportFieldsOf` lists them. Failover takes the machine (when the operation
 * names one), then `confirm` (T, 1 or the text "confirm") for an operation that moves the show; a RenderStream
 * layer's `stop` takes `confirm` the same way, its other operations nothing.
 * `transportName` turns the address's transport (as the bridge's own OSC values spell it) into the session's name;
 * `layerSegment` turns the address's layer into the segment its MQTT topic has, which the runner matches.
 */
export function oscCommandOf(
  root: string,
  address: string,
  args: readonly OscInArg[],
  transportName: (segment: string) => string = (segment) => segment,
  layerSegment: (part: string) => string = (part) => part,
): OscCommand | undefined {
  if (!address.startsWith(`${root}/`)) return undefined;
  const parts = address.slice(root.length + 1).split('/');
  if (parts[0] === 'transport') {
    const [, segment, command, ...rest] = parts;
    if (!segment || !command || rest.length > 0) throw unknown(address);
    return transportCommand(transportName(segment), command, args);
  }
  if (parts[0] === 'failover') {
    const [, operation, ...rest] = parts;
    if (!operation || rest.length > 0) throw unknown(address);
    return failoverCommand(operation, args);
  }
  if (parts[0] === 'renderstream') {
    const [, part, operation, ...rest] = parts;
    if (!part || !operation || rest.length > 0) throw unknown(address);
    return renderStreamCommand(layerSegment(part), operation, args);
  }
  return undefined;
}

function unknown(address: string): CommandRefusedError {
  return new CommandRefusedError(
    COMMAND_REFUSALS.unknownCommand,
    `${address} is not a command: use .../transport/<transport>/<command>, .../failover/<operation> or .../renderstream/<layer>/<op>.`,
  );
}

/** One string argument holding a JSON object: the command's fields by name. */
function jsonBody(args: readonly OscInArg[]): Record<string, unknown> | undefined {
  const [only] = args;
  if (args.length !== 1 || typeof only !== 'string' || !only.trimStart().startsWith('{')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(only);
  } catch {
    throw malformed('The argument starts with { but is not JSON: send one JSON object, or the fields as arguments in their order.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw malformed('The JSON argument must be an object.');
  return body as Record<string, unknown>;
}

function transportCommand(transport: string, command: string, args: readonly OscInArg[]): OscCommand {
  const path = `transport/${command}`;
  const json = jsonBody(args);
  if (json) {
    if (Object.hasOwn(json, 'transport')) throw malformed('The address names the transport: leave "transport" out of the JSON argument.');
    return { path, body: { ...json, transport } };
  }
  if (command === 'playmode' && args.length <= 1) return { path, body: { transport, ...(args.length === 1 ? { playmode: args[0] } : {}) } };
  // An unknown command is the runner's to refuse, in the words every front end gets.
  if (!isTransportCommand(command)) return { path, body: { transport } };
  const fields = transportFieldsOf(command);
  if (args.length > fields.length) {
    throw malformed(`${command} takes ${fields.length === 0 ? 'no arguments' : `at most ${fields.length} argument${fields.length > 1 ? 's' : ''}: ${fields.map(({ field }) => field).join(', ')}`} (got ${args.length}).`);
  }
  const body: Record<string, unknown> = { transport };
  args.forEach((arg, index) => {
    const use = fields[index];
    if (use) body[use.field] = fieldValue(use.kind, arg);
  });
  return { path, body };
}

function failoverCommand(operation: string, args: readonly OscInArg[]): OscCommand {
  const path = `failover/${operation}`;
  const json = jsonBody(args);
  if (json) return { path, body: json };
  if (!Object.hasOwn(FAILOVER_COMMANDS, operation)) return { path, body: {} };
  const { needsMachine } = FAILOVER_COMMANDS[operation as FailoverCommand];
  const guarded = needsConfirmation(FAILOVER_OPERATIONS[operation as FailoverCommand]);
  const names = [...(needsMachine ? ['machine'] : []), ...(guarded ? ['confirm'] : [])];
  if (args.length > names.length) throw malformed(`${operation} takes ${names.length === 0 ? 'no arguments' : names.join(', then ')} (got ${args.length} arguments).`);
  const body: Record<string, unknown> = {};
  args.forEach((arg, index) => {
    const name = names[index];
    if (name === 'machine') body.machine = arg;
    // Only an explicit yes confirms: anything else leaves the operation refused as unconfirmed.
    else if (name === 'confirm' && (arg === true || arg === 1 || arg === 'confirm')) body.confirm = true;
  });
  return { path, body };
}

function renderStreamCommand(segment: string, operation: string, args: readonly OscInArg[]): OscCommand {
  const path = `renderstream/${segment}/${operation}`;
  const json = jsonBody(args);
  if (json) return { path, body: json };
  // An unknown operation is the runner's to refuse, in the words every front end gets.
  if (!Object.hasOwn(RENDERSTREAM_COMMANDS, operation)) return { path, body: {} };
  const guarded = needsConfirmation(RENDERSTREAM_COMMANDS[operation as RenderStreamCommand]);
  if (args.length > (guarded ? 1 : 0)) throw malformed(`${operation} takes ${guarded ? 'confirm' : 'no arguments'} (got ${args.length} arguments).`);
  // Only an explicit yes confirms: anything else leaves the operation refused as unconfirmed.
  const [confirm] = args;
  return { path, body: guarded && (confirm === true || confirm === 1 || confirm === 'confirm') ? { confirm: true } : {} };
}

/** OSC senders often have no booleans (QLab, TouchOSC send 0 and 1): a 0 or 1 is taken where a boolean is. */
function fieldValue(kind: TransportFieldKind, arg: OscInArg): unknown {
  if (kind === 'boolean' && (arg === 0 || arg === 1)) return arg === 1;
  return arg;
}
