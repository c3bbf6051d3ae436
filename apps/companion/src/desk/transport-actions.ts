/**
 * One action per transport command, its id the command's saved name (`play`, `gototrack`, `volume`, ...) and its
 * options named as core's fields: which fields a command takes and reads come from core, never from here. Every
 * cue goes through the show's cue lane, so cues land in the order they were pressed.
 */
import type { CompanionActionDefinition, DropdownChoice, JsonValue, SomeCompanionActionInputField } from '@companion-module/base';
import {
  InvalidInputError,
  PLAYMODE_LABELS,
  PLAYMODES,
  readTransportFields,
  TAG_TYPES,
  TRANSPORT_COMMAND_LABELS,
  TRANSPORT_FIELD_LABELS,
  type TransportCommand,
  type TransportCommandFields,
  type TransportField,
  transportFieldsOf,
} from '@stagelink/core';
import type { Show } from '../show/show.js';
import { failureOf } from './failure.js';
import { optionIdOf, TRANSPORT_ACTION_ID_LIST, TRANSPORT_ACTION_IDS, type TransportActionId } from './saved-ids.js';
import { textOption, transportFieldOption } from './option-values.js';

/** What a dropdown offers, read when the definitions are set (again whenever the lists change). */
export interface Choices {
  transports: DropdownChoice<string>[];
  /** The multitransports by name: a command to one goes to all its members. */
  multitransports: DropdownChoice<string>[];
  tracks: DropdownChoice<string>[];
}

/**
 * A transport picker's value for "whichever transport the director reports active": read at the press, so a
 * button follows the operator's choice in Designer. Saved in the button as it is, so it reads as what it means.
 */
export const ACTIVE_TRANSPORT = '(active transport)';

/** Every transport picker's choices: the transports, the multitransports, and the active transport. */
export function transportChoices(choices: Pick<Choices, 'transports' | 'multitransports'>): DropdownChoice<string>[] {
  return [...choices.transports, ...choices.multitransports, { id: ACTIVE_TRANSPORT, label: 'the active transport (as the director reports it at the press)' }];
}

/** The transports a picked target means at the press: the active ones read now, else the one named. */
async function targetsOf(show: Show, transport: string): Promise<string[]> {
  return transport === ACTIVE_TRANSPORT ? show.activeTransports() : [transport];
}

export const PLAYMODE_CHOICES: DropdownChoice<string>[] = PLAYMODES.map((playmode) => ({ id: playmode === 'NotSet' ? '' : playmode, label: PLAYMODE_LABELS[playmode] }));

export function transportOption(choices: Choices): SomeCompanionActionInputField {
  const all = transportChoices(choices);
  return { type: 'dropdown', id: 'transport', label: 'Transport, multitransport, or the active transport', choices: all, default: all[0]?.id ?? '', allowCustom: true };
}

function fieldOption(field: TransportField, choices: Choices): SomeCompanionActionInputField {
  const label = TRANSPORT_FIELD_LABELS[field].replace(/^./, (first) => first.toUpperCase());
  switch (field) {
    case 'track':
      return { type: 'dropdown', id: field, label: 'Track', choices: choices.tracks, default: choices.tracks[0]?.id ?? '', allowCustom: true };
    case 'playmode':
      return { type: 'dropdown', id: field, label: 'Playmode', choices: PLAYMODE_CHOICES, default: '' };
    case 'tagType':
      return { type: 'dropdown', id: field, label, choices: TAG_TYPES.map((type) => ({ id: type, label: type })), default: 'TC', allowCustom: true };
    case 'engaged':
      return { type: 'dropdown', id: field, label: 'Engaged', choices: ENGAGED_CHOICES, default: 'toggle' };
    case 'allowGlobalJump':
    case 'ignoreTags':
      return { type: 'checkbox', id: field, label, default: false };
    case 'section':
      return { type: 'number', id: field, label, default: 0, min: 0, max: 9999, step: 1, asInteger: true };
    case 'volume':
    case 'brightness':
      return { type: 'number', id: field, label, default: 1, min: 0, max: 1, step: 0.01, range: true };
    case 'speed':
      return { type: 'number', id: field, label, default: 1, min: 0, max: 10, step: 0.1 };
    case 'time':
    case 'frame':
      return { type: 'number', id: field, label, default: 0, min: 0, max: 10_000_000, step: field === 'time' ? 0.01 : 1 };
    default:
      return { type: 'textinput', id: field, label, default: field === 'timecode' ? '00:00:00:00' : '' };
  }
}

const ENGAGED_CHOICES: DropdownChoice<string>[] = [
  { id: 'toggle', label: 'toggle' },
  { id: 'true', label: 'engage' },
  { id: 'false', label: 'disengage' },
];

type Options = Record<string, JsonValue | undefined>;

/** The cue an action's options ask for; an InvalidInputError that names what to set when it is incomplete. */
export function readCue(command: TransportCommand, options: Options): { transport: string; fields: TransportCommandFields } {
  const transport = textOption(options['transport']);
  if (transport === undefined) throw new InvalidInputError('Choose a transport.');
  const reading = readTransportFields(command, (field, kind) => transportFieldOption(options[field], field, kind));
  if (reading.missing) throw new InvalidInputError(`Set the ${TRANSPORT_FIELD_LABELS[reading.missing]}.`);
  return { transport, fields: reading.fields };
}

export function transportActions(current: () => Show, choices: Choices): Record<TransportActionId, CompanionActionDefinition> {
  const entries = TRANSPORT_ACTION_ID_LIST.map((actionId): [TransportActionId, CompanionActionDefinition] => {
    const command = TRANSPORT_ACTION_IDS[actionId].command;
    return [actionId, {
      name: `Transport: ${TRANSPORT_COMMAND_LABELS[command]}`,
      options: [transportOption(choices), ...transportFieldsOf(command).map(({ field }) => ({ ...fieldOption(field, choices), id: optionIdOf(actionId, field) }))],
      callback: async ({ options }) => {
        const show = current();
        const label = `Transport: ${TRANSPORT_COMMAND_LABELS[command]}`;
        if (command === 'engaged' && (textOption(options['engaged']) ?? 'toggle') === 'toggle') {
          const transport = textOption(options['transport']);
          if (transport === undefined) throw new InvalidInputError('Choose a transport.');
          await recorded(show, transport, label, async (targets) =>
            show.cues.send(async () => {
              // Core reads each at the press (not from a list seconds old) and sends the opposite.
              for (const name of await targets()) await show.server.transport.toggleEngaged({ name });
            }),
          );
          return show.transportList.refresh();
        }
        const cue = readCue(command, savedOptions(actionId, options));
        const sent = await recorded(show, cue.transport, label, async (targets) =>
          show.cues.send(async () => {
            const names = await targets();
            for (const name of names) await show.server.transport.send(command, { name }, cue.fields);
            return names;
          }),
        );
        for (const name of sent ?? []) {
          if (command === 'gotosection' && cue.fields.section !== undefined) show.sections.set(name, Number(cue.fields.section));
          else if (command !== 'volume' && command !== 'brightness' && command !== 'speed') show.sections.delete(name);
        }
        show.transportList.refresh();
      },
      learn: learnerOf(actionId, command, current),
    }];
  });
  return Object.fromEntries(entries) as Record<TransportActionId, CompanionActionDefinition>;
}

/** A button's saved options under core's field names (the transport keeps its id). */
function savedOptions(actionId: TransportActionId, options: Options): Options {
  const read: Options = { transport: options['transport'] };
  for (const [optionId, field] of Object.entries(TRANSPORT_ACTION_IDS[actionId].options as Partial<Record<string, TransportField>>)) {
    if (field !== undefined) read[field] = options[optionId];
  }
  return read;
}

/**
 * Sends a cue to what the picked target means at the press and records what became of it for each transport it
 * meant (the last-cue variables and feedback); settles as the cue does.
 */
async function recorded<T>(show: Show, transport: string, label: string, send: (targets: () => Promise<string[]>) => Promise<T>): Promise<T> {
  let meant = [transport];
  const targets = async (): Promise<string[]> => (meant = await targetsOf(show, transport));
  try {
    const result = await send(targets);
    for (const name of meant) show.recordCue(name, undefined, () => '');
    return result;
  } catch (error) {
    for (const name of meant) show.recordCue(name, error, (failed) => failureOf(label, failed));
    throw error;
  }
}

/**
 * Learn copies what the transport shows now into the action: its current track (for a go-to-track, -section or
 * -note), the section this module last sent it to, its level. Time and frame are not reported by the server.
 */
function learnerOf(actionId: TransportActionId, command: TransportCommand, current: () => Show): CompanionActionDefinition['learn'] {
  const takes = new Set(transportFieldsOf(command).map(({ field }) => field));
  if (!takes.has('track') && !takes.has('volume') && !takes.has('brightness')) return undefined;
  return async ({ options }) => {
    const name = textOption(options['transport']);
    if (name === undefined) return undefined;
    const show = current();
    const { transports } = await show.server.transport.transports();
    const now = transports.find((transport) => transport.name === name);
    if (!now) return undefined;
    const learned: Options = {};
    if (takes.has('track')) learned['track'] = now.currentTrack.name;
    const section = show.sections.get(name);
    if (takes.has('section') && section !== undefined) learned['section'] = section;
    if (takes.has('volume')) learned['volume'] = now.volume;
    if (takes.has('brightness')) learned['brightness'] = now.brightness;
    return Object.fromEntries(Object.entries(learned).map(([field, value]) => [optionIdOf(actionId, field as TransportField), value]));
  };
}
