/**
 * A transport key's settings turned into one of the spec's transport commands, and fired through core. The
 * command names are the spec's path names (`play`, `gototrack`, ...), which saved profiles keep (core reads a
 * method name such as `gotoTrack` as the same command); which fields each one needs comes from core.
 */
import { readTransportFields, TRANSPORT_FIELD_LABELS, transportCommandNamed } from '@stagelink/core';
import type { MediaServer, Ref, TransportCommand, TransportCommandFields, TransportField, TransportFieldKind } from '@stagelink/core';
import { engageSetting, indexSetting, numberSetting, textSetting, type EngageChoice, type JsonValue, type TransportKeySettings } from '../../settings.js';

/** What a key shows as its command. */
const LABELS: Partial<Record<TransportCommand, string>> = {
  play: 'PLAY',
  stop: 'STOP',
  playsection: 'PLAY SECTION',
  playloopsection: 'LOOP SECTION',
  returntostart: 'TO START',
  gotonexttrack: 'NEXT TRACK',
  gotoprevtrack: 'PREV TRACK',
  gotonextsection: 'NEXT SECTION',
  gotoprevsection: 'PREV SECTION',
  gototrack: 'GO TO TRACK',
  gotosection: 'GO TO SECTION',
  gotonote: 'GO TO NOTE',
  gototag: 'GO TO TAG',
  gototime: 'GO TO TIME',
  gototimecode: 'GO TO TIMECODE',
  gotoframe: 'GO TO FRAME',
  // An engage key's label says what it sends (see ENGAGE_LABELS).
  engaged: 'ENGAGE',
  // Set a fixed level (a blackout, a house level); the level dial turns it step by step.
  volume: 'VOLUME',
  brightness: 'BRIGHTNESS',
  speed: 'SPEED',
};

/** What an engage key shows as its command: what it sends. */
const ENGAGE_LABELS: Record<EngageChoice, string> = {
  engage: 'ENGAGE',
  disengage: 'DISENGAGE',
  toggle: 'ENGAGE \u21c4',
};

export interface Cue {
  command: TransportCommand;
  transport: Ref;
  transportName: string;
  /** The fields core sends with the command; the key's own `engaged` is decided at the press. */
  fields: TransportCommandFields;
  label: string;
  /** What the face shows under the label: the target of the cue, or the transport. */
  name: string;
  /** An engage key's choice: what it sends. */
  engage?: EngageChoice;
}

/**
 * The state a multi-action step was given in the Stream Deck app (`userDesiredState`): the transport action's
 * manifest names state 0 Engage and state 1 Disengage, so a step of an engage key set to toggle always does the
 * same. A key whose own setting is engage or disengage sends that whatever the step's state.
 */
export type StepState = number | undefined;

/** Engage, disengage, or read the transport at the press and send the opposite. */
export function engageIntent(cue: Cue, step: StepState): EngageChoice {
  const choice = cue.engage ?? 'toggle';
  if (choice !== 'toggle' || step === undefined) return choice;
  return step === 1 ? 'disengage' : 'engage';
}

/** A setting that is there but cannot be what its field takes: the key says so instead of sending it. */
class SettingProblem extends Error {}

export type CueReading = { ok: true; cue: Cue } | { ok: false; problem: string; label: string };

/** Reads a key's settings; a key that is not fully set up gets a sentence saying what is missing. */
export function readCue(settings: TransportKeySettings): CueReading {
  const saved = textSetting(settings.command);
  if (!saved) return { ok: false, label: 'TRANSPORT', problem: 'Choose a command.' };
  const command = transportCommandNamed(saved);
  const label = command && LABELS[command];
  if (!command || !label) return { ok: false, label: 'TRANSPORT', problem: `Unknown command "${saved}".` };
  const transportName = textSetting(settings.transport);
  if (!transportName) return { ok: false, label, problem: 'Choose a transport.' };
  if (command === 'engaged') {
    const engage = engageSetting(settings.engaged);
    if (!engage) return { ok: false, label, problem: `The engage choice "${String(settings.engaged)}" is none of engage, disengage, toggle: choose it again.` };
    return { ok: true, cue: { ...cueOf(command, transportName, ENGAGE_LABELS[engage], {}), engage } };
  }
  try {
    const reading = readTransportFields(command, (field, kind) => settingOf(settings[field], field, kind));
    if (reading.missing) return { ok: false, label, problem: `Set the ${TRANSPORT_FIELD_LABELS[reading.missing]}.` };
    return { ok: true, cue: cueOf(command, transportName, label, reading.fields) };
  } catch (error) {
    if (error instanceof SettingProblem) return { ok: false, label, problem: error.message };
    throw error;
  }
}

function cueOf(command: TransportCommand, transportName: string, label: string, fields: TransportCommandFields): Cue {
  return { command, transport: { name: transportName }, transportName, fields, label, name: nameOf(command, fields) ?? transportName };
}

/** A setting read as the kind core expects; a track typed as "42" stays a name. */
function settingOf(value: JsonValue | undefined, field: TransportField, kind: TransportFieldKind): unknown {
  switch (kind) {
    case 'text':
      return textSetting(value);
    case 'index':
      return indexOf(value, field);
    case 'number':
      return numberSetting(value);
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'ref': {
      const name = textSetting(value);
      return name === undefined ? undefined : { name };
    }
  }
}

/**
 * A section goes by its 0-based index, as directors take it. A name (what keys saved before directors were
 * known to refuse it) is never sent: the key asks for the section to be chosen again, and points to notes,
 * which go by name.
 */
function indexOf(value: JsonValue | undefined, field: TransportField): number | undefined {
  const index = indexSetting(value);
  if (index !== undefined) return index;
  const text = textSetting(value);
  if (text === undefined) return undefined;
  if (Number.isFinite(Number(text))) throw new SettingProblem(`The ${field} must be an index: 0, 1, 2, ... (not ${text}).`);
  throw new SettingProblem(`The ${field} "${text}" is a name: choose it again by its index (0 is the first). "Go to note" goes by name.`);
}

function nameOf(command: TransportCommand, fields: TransportCommandFields): string | undefined {
  switch (command) {
    case 'gototrack':
      return fields.track?.name;
    case 'gotosection':
      return onTrack(fields, `Section ${fields.section}`);
    case 'gotonote':
      return onTrack(fields, String(fields.note));
    case 'gototag':
      return `${fields.tagType} ${fields.tagValue}`;
    case 'gototime':
      return `${fields.time} s`;
    case 'gototimecode':
      return fields.timecode;
    case 'gotoframe':
      return `Frame ${fields.frame}`;
    case 'volume':
    case 'brightness':
      return `${Math.round((fields[command] ?? 0) * 100)} %`;
    case 'speed':
      return `${fields.speed} x`;
    default:
      return undefined;
  }
}

/** "Finale: Section 3" when the cue names its track; the section or note alone when it acts on the current one. */
function onTrack(fields: TransportCommandFields, target: string): string {
  const track = fields.track?.name;
  return track === undefined ? target : `${track}: ${target}`;
}

/**
 * Sends the cue through core; rejects with core's error (which says what failed) when it did not fire. `step` is
 * the state a multi-action step was given (see engageIntent).
 */
export async function fireCue(server: MediaServer, cue: Cue, signal?: AbortSignal, step?: StepState): Promise<void> {
  if (cue.command === 'engaged') {
    const intent = engageIntent(cue, step);
    // Read at the press (not from a poll seconds old), in core: what the transport shows then decides what is sent.
    if (intent === 'toggle') {
      await server.transport.toggleEngaged(cue.transport, { signal });
      return;
    }
    return server.transport.setEngaged({ transport: cue.transport, engaged: intent === 'engage' }, { signal });
  }
  // Go to section / note keys may name their track: core's send goes there first.
  return server.transport.send(cue.command, cue.transport, cue.fields, { signal });
}
