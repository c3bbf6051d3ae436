import { readTransportFields, transportFieldsOf } from '@stagelink/core';
import type { CallOptions, MediaServer, Ref, TransportCommand, TransportCommandFields, TransportField, TransportFieldKind } from '@stagelink/core';
import { missing, type MessageProperties } from '../../shared/msg-override.js';
import { say } from '../../shared/words.js';

/** What was sent: the node passes it on as `msg.payload`. */
export interface SentCue extends TransportCommandFields {
  command: TransportCommand;
  transports: Ref[];
}

/** One field from the msg or the node, read as the kind core expects. */
function readField(props: MessageProperties, field: TransportField, kind: TransportFieldKind): Promise<unknown> {
  const what = fieldWords(field);
  switch (kind) {
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

/** How an error names a field, with what it takes where that is not obvious: "volume (0 to 1)". */
function fieldWords(field: TransportField): string {
  return say(`error.transportField.${field}`);
}

/**
 * Sends one transport command through core, with the fields core says it takes read from the msg or the node;
 * resolves to what was sent. Playmode left empty keeps the transport's current one.
 */
export async function sendTransportCommand(
  client: MediaServer,
  command: TransportCommand,
  props: MessageProperties,
  options: CallOptions,
): Promise<SentCue> {
  const transports = await props.requiredRefs('transport');
  // Message properties are read asynchronously (context stores may be), core's reading is synchronous: read
  // them first, in core's order, and stop at a needed one that is missing, which core then names.
  const values = new Map<TransportField, unknown>();
  for (const { field, kind, required } of transportFieldsOf(command)) {
    const value = await readField(props, field, kind);
    values.set(field, value);
    if (value === undefined && required) break;
  }
  const reading = readTransportFields(command, (field) => values.get(field));
  if (reading.missing) throw missing(reading.missing, fieldWords(reading.missing));
  await client.transport.send(command, transports, reading.fields, options);
  return { command, transports, ...reading.fields };
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
