import {
  TRANSPORT_COMMANDS,
  TRANSPORT_FIELD_LABELS,
  TRANSPORT_FIELDS,
  type CallOptions,
  type MediaServer,
  type Ref,
  type TransportCommand,
  type TransportCommandFields,
  type TransportCommandShape,
  type TransportField,
} from '@stagelink/core';
import { missing, type MessageProperties } from '../../shared/msg-override.js';

/** What was sent: the node passes it on as `msg.payload`. */
export interface SentCue extends TransportCommandFields {
  command: TransportCommand;
  transports: Ref[];
}

/** One field from the msg or the node, read as the kind core expects. */
async function readField(props: MessageProperties, field: TransportField): Promise<unknown> {
  const what = TRANSPORT_FIELD_LABELS[field];
  switch (TRANSPORT_FIELDS[field]) {
    case 'ref':
      return props.ref(field, what);
    case 'text':
      return props.text(field, what);
    case 'number':
      return props.number(field, what);
    case 'boolean':
      return props.boolean(field, what);
    case 'index':
      // A number or decimal text, as given: core checks it and says what a section index is.
      return props.value(field);
  }
}

/**
 * Sends one transport command through core, reading the fields core says it needs (TRANSPORT_COMMANDS) from
 * the msg or the node; resolves to what was sent. Playmode left empty keeps the transport's current one.
 */
export async function sendTransportCommand(
  client: MediaServer,
  command: TransportCommand,
  props: MessageProperties,
  options: CallOptions,
): Promise<SentCue> {
  const transports = await props.requiredRefs('transport');
  const { required, optional }: TransportCommandShape = TRANSPORT_COMMANDS[command];
  const fields: Record<string, unknown> = {};
  for (const field of [...required, ...optional]) {
    const value = await readField(props, field);
    if (value !== undefined) fields[field] = value;
    else if (required.includes(field)) throw missing(field, TRANSPORT_FIELD_LABELS[field]);
  }
  await client.transport.send(command, transports, fields, options);
  return { command, transports, ...(fields as TransportCommandFields) };
}

const DETAIL_FIELDS: TransportField[] = ['section', 'note', 'tagValue', 'time', 'timecode', 'frame', 'volume', 'brightness', 'engaged'];

/** "play main", "gototrack main → Intro", "gotosection main → Intro 3", "volume main 0.5": the status after a cue. */
export function describeCue(sent: SentCue): string {
  const cue = `${sent.command} ${sent.transports.map((ref) => ref.name ?? ref.uid).join(', ')}`;
  const track = sent.track ? ` → ${sent.track.name ?? sent.track.uid}` : '';
  const detail = DETAIL_FIELDS.map((key) => sent[key]).find(
    (value): value is string | number | boolean => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean',
  );
  return detail === undefined ? `${cue}${track}` : `${cue}${track} ${String(detail)}`;
}
