/**
 * The actions beside the transport commands: a level step through the live stream, failover, the OLED screen,
 * SMC power and the LED strip. What core's `needsConfirmation` says needs a confirmation takes two presses
 * (see Arming); nothing else does. The hardware actions (OLED, power, LED strip) name their machine and go only
 * to that machine's management controller from the settings, never to whichever machine directs the session.
 */
import type { CompanionActionDefinition, DropdownChoice, JsonValue } from '@companion-module/base';
import { splitRgb } from '@companion-module/base';
import {
  endpoints,
  type EndpointSpec,
  FAILOVER_OPERATIONS,
  type HardwareApi,
  HardwareTargetError,
  InvalidInputError,
  needsConfirmation,
  OLED_MAX_MESSAGE_LENGTH,
  type SmcMap,
} from '@stagelink/core';
import type { Show } from '../show/show.js';
import type { Level } from '../show/transport-watch.js';
import { type Arming, armKey, powerArmKey } from './arming.js';
import { numberOption, textOption } from './option-values.js';
import { ACTIVE_TRANSPORT, type Choices, transportOption } from './transport-actions.js';

export interface MachineChoices {
  /** Every machine of the session, by name. */
  machines: DropdownChoice<string>[];
  /** Every machine of the session by hostname, and every machine with a management controller in the settings. */
  hardwareMachines: DropdownChoice<string>[];
}

type Options = Record<string, JsonValue | undefined>;

export const POWER_OPERATIONS = {
  on: endpoints.powerOn,
  off: endpoints.powerOff,
  cycle: endpoints.powerCycle,
} as const satisfies Record<string, EndpointSpec>;

export type PowerOperation = keyof typeof POWER_OPERATIONS;

export const LED_MODES = ['static', 'colour_id', 'rainbow'] as const;

/** The actions that act on one machine's hardware through its management controller, named in their `machine`. */
export const HARDWARE_ACTION_IDS: ReadonlySet<string> = new Set(['oled_message', 'smc_power', 'smc_ledstrip', 'smc_whoami']);

/** Fires `fire` now, or on the second press when core says the operation needs a confirmation. */
async function confirmed(arming: Arming, spec: EndpointSpec, key: string, controlId: string, fire: () => Promise<unknown>): Promise<void> {
  if (needsConfirmation(spec) && !arming.press(key, controlId)) return;
  await fire();
}

/**
 * The hardware API of the machine an action names, from its line in the settings; refused (nothing sent) when it
 * names none or has no line: a hardware action never goes to the session's address, which follows the director.
 */
export function hardwareOf(show: Show, smcs: SmcMap, machine: string | undefined, action: string): HardwareApi {
  if (machine === undefined) throw new HardwareTargetError(`${action}: choose the machine it is for. Nothing was sent: hardware actions go to one named machine, never to the director.`);
  const wanted = machine.toLowerCase();
  if (!Object.keys(smcs).some((hostname) => hostname.toLowerCase() === wanted)) {
    throw new HardwareTargetError(
      `${action}: no management controller for ${machine} in the connection's settings, so nothing was sent. Add the line ${machine}=<its SMC address> under "Management controllers (SMC)".`,
    );
  }
  return show.server.hardwareOf(machine);
}

export function showActions(current: () => Show, arming: Arming, choices: Choices & MachineChoices, smcs: () => SmcMap): Record<string, CompanionActionDefinition> {
  const hardwareMachine = {
    type: 'dropdown',
    id: 'machine',
    label: 'Machine (its hostname in the session)',
    choices: choices.hardwareMachines,
    default: choices.hardwareMachines[0]?.id ?? '',
    allowCustom: true,
  } as const;
  const machineHardware = (options: Options, action: string): { machine: string | undefined; hardware: () => HardwareApi } => {
    const machine = textOption(options['machine']);
    return { machine, hardware: () => hardwareOf(current(), smcs(), machine, action) };
  };
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
    callback: async ({ options, controlId }) => {
      const machine = textOption(options['machine']);
      if (machine === undefined) throw new InvalidInputError('Choose a machine.');
      const api = current().server.failover;
      const send = operation === 'failovermachine' ? async () => api.failoverMachine({ name: machine }) : async () => api.restoreMachine({ name: machine });
      await confirmed(arming, FAILOVER_OPERATIONS[operation], armKey(operation, machine), controlId, send);
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
      callback: async ({ controlId }) => {
        await confirmed(arming, FAILOVER_OPERATIONS.applydefaultrouting, armKey('applydefaultrouting', ''), controlId, async () => current().server.failover.applyDefaultRouting());
      },
    },
    oled_message: {
      name: 'Hardware: show a message on the OLED screen',
      options: [
        hardwareMachine,
        { type: 'textinput', id: 'title', label: 'Title', default: '' },
        { type: 'textinput', id: 'message', label: `Message (up to ${OLED_MAX_MESSAGE_LENGTH} characters)`, default: '' },
        { type: 'dropdown', id: 'priority', label: 'Priority', choices: [0, 1, 2].map((id) => ({ id, label: String(id) })), default: 0 },
        {
          type: 'number',
          id: 'displayTime',
          label: 'Display time (seconds; 0 keeps the screen\u2019s own, 10 s from the factory)',
          default: 0,
          min: 0,
          max: 3600,
          step: 1,
        },
      ],
      callback: async ({ options }) => {
        const message = textOption(options['message']);
        if (message === undefined) throw new InvalidInputError('Write the message to show.');
        const { hardware } = machineHardware(options, 'OLED message');
        const seconds = numberOption(options['displayTime'], 'display time') ?? 0;
        // The display time is the screen's setting for every notification after it: set first, then shown.
        if (seconds > 0) await hardware().oled.setDisplayTime(seconds);
        await hardware().oled.notify({ title: textOption(options['title']) ?? '', message, priority: numberOption(options['priority'], 'priority') ?? 0 });
      },
    },
    smc_power: {
      name: 'Hardware: power on, off or cycle (off and cycle: two presses)',
      description:
        'Through the named machine\u2019s management controller (IPMI, no graceful shutdown). Off and cycle take two presses of the same button for the same machine: the first arms for 5 seconds.',
      options: [hardwareMachine, { type: 'dropdown', id: 'power', label: 'Power', choices: POWER_CHOICES, default: 'on' }],
      callback: async ({ options, controlId }) => {
        const operation = textOption(options['power']);
        if (!isPowerOperation(operation)) throw new InvalidInputError('Choose on, off or cycle.');
        const { machine, hardware } = machineHardware(options, `Power ${operation}`);
        // Refused before arming: a press that can never fire must not show as armed.
        const chassis = hardware().chassis;
        const send = { on: async () => chassis.powerOn(), off: async () => chassis.powerOff({ confirm: true }), cycle: async () => chassis.powerCycle({ confirm: true }) }[operation];
        await confirmed(arming, POWER_OPERATIONS[operation], powerArmKey(operation, machine ?? ''), controlId, send);
        current().powerOf(machine ?? '')?.refresh();
      },
    },
    smc_whoami: {
      name: 'Hardware: identify the machine (blink its OLED screen and rear LED strip)',
      description: 'Through the named machine\u2019s management controller: find the machine in the rack.',
      options: [hardwareMachine],
      callback: async ({ options }) => {
        const { hardware } = machineHardware(options, 'Identify');
        await hardware().chassis.whoami();
      },
    },
    smc_ledstrip: {
      name: 'Hardware: set the LED strip',
      options: [
        hardwareMachine,
        { type: 'dropdown', id: 'ledMode', label: 'Mode', choices: LED_MODES.map((mode) => ({ id: mode, label: mode.replace('_', ' ') })), default: 'static' },
        { type: 'colorpicker', id: 'colour', label: 'Colour', default: '#ffffff', returnType: 'string' },
      ],
      callback: async ({ options }) => {
        const mode = textOption(options['ledMode']);
        if (!LED_MODES.some((known) => known === mode)) throw new InvalidInputError(`Choose a mode: ${LED_MODES.join(', ')}.`);
        const { r, g, b } = splitRgb(typeof options['colour'] === 'number' ? options['colour'] : (textOption(options['colour']) ?? '#ffffff'));
        const { hardware } = machineHardware(options, 'LED strip');
        await hardware().ledStrip.set({ ledMode: mode as (typeof LED_MODES)[number], ledR: Math.round(r), ledG: Math.round(g), ledB: Math.round(b) });
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

/**
 * A step from the value the stream sends now, for a transport, each member of a multitransport, or each transport
 * the director reports active; refused, with nothing changed, when any of them has no live value, so no step
 * starts from a guess.
 */
async function stepLevel(show: Show, level: Level, options: Options): Promise<void> {
  const name = textOption(options['transport']);
  if (name === undefined) throw new InvalidInputError('Choose a transport.');
  const step = numberOption(options['step'], 'step') ?? 0;
  const names = name === ACTIVE_TRANSPORT ? await show.activeTransports() : (show.multitransports.find((multi) => multi.name === name)?.members ?? [name]);
  const steps = names.map((each) => {
    const watch = show.transports.get(each);
    // From the value a turn just before this one wrote, while the stream has not sent it back: no turn is lost.
    const current = watch?.levels[level].target;
    if (!watch || current === undefined) {
      throw new InvalidInputError(`The ${level} of ${each} is not live (no value from the live stream): nothing was changed.`);
    }
    return async () => watch.levels[level].set(Math.min(1, Math.max(0, Math.round((current + step) * 1000) / 1000)));
  });
  for (const set of steps) await set();
}
