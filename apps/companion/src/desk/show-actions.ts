/**
 * The actions beside the transport commands: a level step through the live stream, failover, the OLED screen,
 * SMC power and the LED strip. What core's `needsConfirmation` says needs a confirmation takes two presses
 * (see Arming); nothing else does.
 */
import type { CompanionActionDefinition, DropdownChoice, JsonValue } from '@companion-module/base';
import { splitRgb } from '@companion-module/base';
import { endpoints, type EndpointSpec, FAILOVER_OPERATIONS, InvalidInputError, needsConfirmation, OLED_MAX_MESSAGE_LENGTH } from '@stagelink/core';
import type { Show } from '../show/show.js';
import type { Level } from '../show/transport-watch.js';
import { type Arming, armKey } from './arming.js';
import { numberOption, textOption } from './option-values.js';
import { type Choices, transportOption } from './transport-actions.js';

export interface MachineChoices {
  /** Every machine of the session, by name. */
  machines: DropdownChoice<string>[];
}

type Options = Record<string, JsonValue | undefined>;

export const POWER_OPERATIONS = {
  on: endpoints.powerOn,
  off: endpoints.powerOff,
  cycle: endpoints.powerCycle,
} as const satisfies Record<string, EndpointSpec>;

export type PowerOperation = keyof typeof POWER_OPERATIONS;

export const LED_MODES = ['static', 'colour_id', 'rainbow'] as const;

/** Fires `fire` now, or on the second press when core says the operation needs a confirmation. */
async function confirmed(arming: Arming, spec: EndpointSpec, key: string, fire: () => Promise<unknown>): Promise<void> {
  if (needsConfirmation(spec) && !arming.press(key)) return;
  await fire();
}

export function showActions(current: () => Show, arming: Arming, choices: Choices & MachineChoices): Record<string, CompanionActionDefinition> {
  const levelStep = (level: Level): CompanionActionDefinition => ({
    name: `Transport: ${level} up or down by a step`,
    description: `Writes the ${level} through the live stream, from the value the server sends now.`,
    options: [transportOption(choices), { type: 'number', id: 'step', label: 'Step (negative: down)', default: 0.05, min: -1, max: 1, step: 0.01 }],
    callback: async ({ options }) => stepLevel(current(), level, options),
  });
  const failover = (operation: 'failovermachine' | 'restoremachine'): CompanionActionDefinition => ({
    name: operation === 'failovermachine' ? 'Failover: fail over a machine (two presses)' : 'Failover: restore a machine (two presses)',
    description: 'The first press arms it for 5 seconds (the armed feedback shows it); the second press sends it.',
    options: [{ type: 'dropdown', id: 'machine', label: 'Machine', choices: choices.machines, default: choices.machines[0]?.id ?? '', allowCustom: true }],
    callback: async ({ options }) => {
      const machine = textOption(options['machine']);
      if (machine === undefined) throw new InvalidInputError('Choose a machine.');
      const api = current().server.failover;
      const send = operation === 'failovermachine' ? () => api.failoverMachine({ name: machine }) : () => api.restoreMachine({ name: machine });
      await confirmed(arming, FAILOVER_OPERATIONS[operation], armKey(operation, machine), send);
    },
  });
  return {
    volume_adjust: levelStep('volume'),
    brightness_adjust: levelStep('brightness'),
    failovermachine: failover('failovermachine'),
    restoremachine: failover('restoremachine'),
    applydefaultrouting: {
      name: 'Failover: apply the default routing',
      options: [],
      callback: async () => {
        await confirmed(arming, FAILOVER_OPERATIONS.applydefaultrouting, armKey('applydefaultrouting', ''), () => current().server.failover.applyDefaultRouting());
      },
    },
    oled_message: {
      name: 'Hardware: show a message on the OLED screen',
      options: [
        { type: 'textinput', id: 'title', label: 'Title', default: '' },
        { type: 'textinput', id: 'message', label: `Message (up to ${OLED_MAX_MESSAGE_LENGTH} characters)`, default: '' },
        { type: 'dropdown', id: 'priority', label: 'Priority', choices: [0, 1, 2].map((id) => ({ id, label: String(id) })), default: 0 },
      ],
      callback: async ({ options }) => {
        const message = textOption(options['message']);
        if (message === undefined) throw new InvalidInputError('Write the message to show.');
        await current().server.hardware.oled.notify({ title: textOption(options['title']) ?? '', message, priority: numberOption(options['priority'], 'priority') ?? 0 });
      },
    },
    smc_power: {
      name: 'Hardware: power on, off or cycle (off and cycle: two presses)',
      description: 'Through the management controller (IPMI, no graceful shutdown). Off and cycle take two presses: the first arms for 5 seconds.',
      options: [{ type: 'dropdown', id: 'power', label: 'Power', choices: POWER_CHOICES, default: 'on' }],
      callback: async ({ options }) => {
        const operation = textOption(options['power']);
        if (!isPowerOperation(operation)) throw new InvalidInputError('Choose on, off or cycle.');
        const chassis = current().server.hardware.chassis;
        const send = { on: () => chassis.powerOn(), off: () => chassis.powerOff({ confirm: true }), cycle: () => chassis.powerCycle({ confirm: true }) }[operation];
        await confirmed(arming, POWER_OPERATIONS[operation], armKey('smc_power', operation), send);
      },
    },
    smc_ledstrip: {
      name: 'Hardware: set the LED strip',
      options: [
        { type: 'dropdown', id: 'ledMode', label: 'Mode', choices: LED_MODES.map((mode) => ({ id: mode, label: mode.replace('_', ' ') })), default: 'static' },
        { type: 'colorpicker', id: 'colour', label: 'Colour', default: '#ffffff', returnType: 'string' },
      ],
      callback: async ({ options }) => {
        const mode = textOption(options['ledMode']);
        if (!LED_MODES.some((known) => known === mode)) throw new InvalidInputError(`Choose a mode: ${LED_MODES.join(', ')}.`);
        const { r, g, b } = splitRgb(typeof options['colour'] === 'number' ? options['colour'] : (textOption(options['colour']) ?? '#ffffff'));
        await current().server.hardware.ledStrip.set({ ledMode: mode as (typeof LED_MODES)[number], ledR: Math.round(r), ledG: Math.round(g), ledB: Math.round(b) });
      },
    },
  };
}

const POWER_CHOICES: DropdownChoice<string>[] = [
  { id: 'on', label: 'on' },
  { id: 'off', label: 'off (two presses)' },
  { id: 'cycle', label: 'cycle (two presses)' },
];

function isPowerOperation(value: string | undefined): value is PowerOperation {
  return value !== undefined && Object.hasOwn(POWER_OPERATIONS, value);
}

/** A step from the value the stream sends now; refused when there is none, so no step starts from a guess. */
async function stepLevel(show: Show, level: Level, options: Options): Promise<void> {
  const name = textOption(options['transport']);
  if (name === undefined) throw new InvalidInputError('Choose a transport.');
  const step = numberOption(options['step'], 'step') ?? 0;
  const watch = show.transports.get(name);
  const current = watch?.levels[level].value;
  if (!watch || current === undefined) {
    throw new InvalidInputError(`The ${level} of ${name} is not live (no value from the live stream): nothing was changed.`);
  }
  await watch.levels[level].set(Math.min(1, Math.max(0, Math.round((current + step) * 1000) / 1000)));
}
