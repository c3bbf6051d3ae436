/**
 * The module's feedbacks. Every one is false (or neutral) unless its value is live: a transport that stopped
 * reporting is not shown playing, a machine whose FPS went stale shows no alert colour but the `stale` one.
 */
import type { CompanionFeedbackDefinition, DropdownChoice, JsonValue } from '@companion-module/base';
import { toPlaymode, worstHealth } from '@stagelink/core';
import { freshnessOfPoll } from '../show/freshness.js';
import { playStateOf } from '../show/play-state.js';
import type { Show } from '../show/show.js';
import { type Arming, isArmedFor } from './arming.js';
import { colours, fpsAlertStyle, severityStyle, workloadStyle } from './colours.js';
import { blinkOn, type ClockFeedbackId, isLiveClock } from './clock.js';
import { numberOption, textOption } from './option-values.js';
import { PLAYMODE_CHOICES } from './transport-actions.js';
import type { LinkWord } from './variables.js';

export interface FeedbackChoices {
  /** Transports and multitransports, by name. */
  transports: DropdownChoice<string>[];
  /** Transports by variable id, for the stale feedback: a multitransport has no values of its own. */
  transportIds: DropdownChoice<string>[];
  /** Machines by variable id. */
  machines: DropdownChoice<string>[];
  /** Machine names, for the armed feedback (failover takes a name). */
  machineNames: DropdownChoice<string>[];
  /** The machines with a management controller in the settings, by hostname. */
  smcMachines: DropdownChoice<string>[];
  /** The director's RenderStream layers, by name. */
  layers: DropdownChoice<string>[];
  /** The layers by variable id, for the stale feedback. */
  layerIds: DropdownChoice<string>[];
}

export const FEEDBACK_IDS = ['playing', 'playmode', 'health', 'fps_alert', 'link', 'stale', 'armed', 'takeover', 'power', 'power_fault', 'hardware_fault', 'last_cue_failed', 'layer_state', 'layer_workload'] as const;
export type FeedbackId = (typeof FEEDBACK_IDS)[number];

type Options = Record<string, JsonValue | undefined>;

export function feedbackDefinitions(current: () => Show, arming: Arming, choices: FeedbackChoices, link: () => LinkWord, frameRate: () => number): Record<FeedbackId, CompanionFeedbackDefinition> {
  const transport = { type: 'dropdown', id: 'transport', label: 'Transport', choices: choices.transports, default: choices.transports[0]?.id ?? '', allowCustom: true } as const;
  const machine = (label: string, any: boolean) =>
    ({
      type: 'dropdown',
      id: 'machine',
      label,
      choices: any ? [{ id: '', label: 'the whole session' }, ...choices.machines] : choices.machines,
      default: any ? '' : (choices.machines[0]?.id ?? ''),
      allowCustom: true,
    }) as const;
  const smcMachine = { type: 'dropdown', id: 'machine', label: 'Machine (with an SMC in the settings)', choices: choices.smcMachines, default: choices.smcMachines[0]?.id ?? '', allowCustom: true } as const;
  const layer = { type: 'dropdown', id: 'layer', label: 'RenderStream layer', choices: choices.layers, default: choices.layers[0]?.id ?? '', allowCustom: true } as const;
  /** The transport's play state while it is live (from the live stream, or the transports list), else undefined. */
  const livePlay = (options: Options) => {
    const name = textOption(options['transport']);
    return name === undefined ? undefined : playStateOf(current(), name).state;
  };
  return {
    playing: {
      type: 'boolean',
      name: 'Transport is playing',
      defaultStyle: { bgcolor: colours.ok, color: colours.white },
      options: [transport],
      callback: ({ options }) => livePlay(options)?.playing === true,
    },
    playmode: {
      type: 'boolean',
      name: 'Transport is in a playmode',
      defaultStyle: { bgcolor: colours.ok, color: colours.white },
      options: [transport, { type: 'dropdown', id: 'playmode', label: 'Playmode', choices: PLAYMODE_CHOICES.filter(({ id }) => id !== ''), default: 'Play' }],
      callback: ({ options }) => {
        const play = livePlay(options);
        return play !== undefined && play.playmode === toPlaymode(textOption(options['playmode']));
      },
    },
    health: {
      type: 'advanced',
      name: 'Health: colour and word of the worst severity (a machine\u2019s name above it)',
      options: [machine('Machine', true)],
      callback: ({ options }) => {
        const id = textOption(options['machine']);
        const watched = id === undefined ? undefined : current().machineById(id);
        // A machine's tile keeps its name above the word: a wall of tiles must say which machine is which.
        const word = (text: string): string => (watched ? `${watched.name}\n${text}` : text);
        const freshness = freshnessOfPoll(current().health.state);
        if (freshness !== 'live') return { ...severityStyle('stale'), text: word(freshness === 'waiting' ? '' : freshness.toUpperCase()) };
        if (id !== undefined && !watched) return { ...severityStyle('stale'), text: 'UNKNOWN' };
        const severity = worstHealth(current().health.value ?? [], watched?.hostname);
        return { ...severityStyle(severity), text: word(severity.toUpperCase()) };
      },
    },
    fps_alert: {
      type: 'advanced',
      name: 'FPS alert of a machine (colour by level; grey while not live)',
      options: [machine('Machine', false)],
      callback: ({ options }) => {
        const watched = current().machineById(textOption(options['machine']) ?? '');
        const alert = watched?.alert(frameRate());
        if (!watched || alert === undefined) return { bgcolor: colours.noLink, color: colours.white };
        return alert === 'ok' ? {} : fpsAlertStyle(alert);
      },
    },
    link: {
      type: 'boolean',
      name: 'No link: the server cannot be reached',
      defaultStyle: { bgcolor: colours.noLink, color: colours.white, text: 'NO LINK' },
      options: [],
      callback: () => link() === 'no link',
    },
    stale: {
      type: 'boolean',
      name: 'A value is not live (stale or no link)',
      defaultStyle: { bgcolor: colours.noLink, color: colours.white },
      options: [
        {
          type: 'dropdown',
          id: 'subject',
          label: 'Value of',
          choices: [
            { id: '', label: 'anything shown' },
            ...choices.machines.map(({ id, label }) => ({ id: `machine_${id}`, label })),
            ...choices.transportIds.map(({ id, label }) => ({ id: `transport_${id}`, label })),
            ...choices.layerIds.map(({ id, label }) => ({ id: `layer_${id}`, label: `${label} (RenderStream layer)` })),
          ],
          default: '',
        },
      ],
      callback: ({ options }) => isStale(current(), textOption(options['subject'])),
    },
    armed: {
      type: 'boolean',
      name: 'A two-press action is armed',
      defaultStyle: { bgcolor: colours.attention, color: colours.black },
      options: [
        { type: 'dropdown', id: 'action', label: 'Action', choices: ARMED_ACTIONS, default: 'failovermachine' },
        {
          type: 'dropdown',
          id: 'target',
          label: 'Machine, power operation (off, cycle; "off ACTOR01" for one machine), or RenderStream layer',
          choices: [...choices.machineNames, { id: 'off', label: 'power off' }, { id: 'cycle', label: 'power cycle' }, ...choices.layers.map(({ id, label }) => ({ id, label: `${label} (RenderStream layer)` }))],
          default: choices.machineNames[0]?.id ?? '',
          allowCustom: true,
        },
      ],
      callback: ({ options }) => isArmedFor(arming, textOption(options['action']) ?? '', textOption(options['target']) ?? ''),
    },
    last_cue_failed: {
      type: 'boolean',
      name: 'The last cue from here failed (or landed late, or its outcome is unknown)',
      defaultStyle: { bgcolor: colours.error, color: colours.white },
      options: [{ ...transport, choices: [{ id: '', label: 'any transport (the last cue sent)' }, ...choices.transports], default: '' }],
      callback: ({ options }) => {
        const name = textOption(options['transport']);
        if (name === undefined) return current().lastError !== '';
        const outcome = current().lastResults.get(name);
        return outcome !== undefined && outcome !== 'ok';
      },
    },
    power: {
      type: 'boolean',
      name: 'Hardware: machine power is on (or off), as its SMC reports it',
      defaultStyle: { bgcolor: colours.ok, color: colours.white },
      options: [smcMachine, { type: 'dropdown', id: 'state', label: 'Power', choices: [{ id: 'on', label: 'on' }, { id: 'off', label: 'off' }], default: 'on' }],
      callback: ({ options }) => {
        const watch = current().powerOf(textOption(options['machine']) ?? '');
        const power = watch?.status.value?.systemPower;
        return power !== undefined && power === (textOption(options['state']) ?? 'on');
      },
    },
    hardware_fault: {
      type: 'boolean',
      name: 'Hardware: a fault reported by the machine\u2019s SMC (a fan, a temperature, a power flag, an output card), or the SMC not answering',
      defaultStyle: { bgcolor: colours.error, color: colours.white },
      options: [
        smcMachine,
        {
          type: 'dropdown',
          id: 'level',
          label: 'At',
          choices: [
            { id: 'error', label: 'an error (a stopped fan, too hot, a power fault) or no answer' },
            { id: 'warning', label: 'a warning or worse (running warm, an output card not ok)' },
          ],
          default: 'error',
        },
      ],
      callback: ({ options }) => {
        const snapshot = current().hardwareOf(textOption(options['machine']) ?? '')?.snapshot;
        if (!snapshot) return false;
        if (snapshot.status === 'offline') return true;
        return snapshot.severity === 'error' || (textOption(options['level']) === 'warning' && snapshot.severity === 'warning');
      },
    },
    power_fault: {
      type: 'boolean',
      name: 'Hardware: a power fault reported by the machine\u2019s SMC (overload, main power, power control)',
      defaultStyle: { bgcolor: colours.error, color: colours.white },
      options: [smcMachine],
      callback: ({ options }) => current().powerOf(textOption(options['machine']) ?? '')?.fault === true,
    },
    layer_state: {
      type: 'boolean',
      name: 'RenderStream: a layer\u2019s workload is in a state',
      defaultStyle: { bgcolor: colours.error, color: colours.white },
      options: [layer, { type: 'dropdown', id: 'state', label: 'State', choices: WORKLOAD_STATES.map((state) => ({ id: state, label: state })), default: 'error', allowCustom: true }],
      callback: ({ options }) => {
        const renderStream = current().renderStream;
        const shown = renderStream.layerNamed(textOption(options['layer']) ?? '');
        const state = textOption(options['state'])?.toLowerCase();
        // Only a state read this period: a layer whose read failed shows no state, never its last one as now.
        return shown !== undefined && renderStream.freshness === 'live' && shown.layer.workload.state.toLowerCase() === state;
      },
    },
    layer_workload: {
      type: 'advanced',
      name: 'RenderStream: colour and word of a layer\u2019s workload state (its name above it)',
      options: [layer],
      callback: ({ options }) => {
        const renderStream = current().renderStream;
        const typed = textOption(options['layer']) ?? '';
        const shown = renderStream.layerNamed(typed);
        const freshness = renderStream.freshness;
        if (!shown) return { ...workloadStyle(undefined), text: `${typed}\n${renderStream.offered === false ? 'NO RENDERSTREAM' : freshness === 'live' ? 'UNKNOWN' : freshness === 'waiting' ? '' : freshness.toUpperCase()}` };
        const name = shown.layer.name;
        if (freshness !== 'live') return { ...workloadStyle(undefined), text: `${name}\n${freshness === 'waiting' ? '' : freshness.toUpperCase()}` };
        const state = shown.layer.workload.state;
        return { ...workloadStyle(state), text: `${name}\n${state.toUpperCase()}` };
      },
    },
    takeover: {
      type: 'boolean',
      name: 'Understudy has taken over a failed actor',
      defaultStyle: { bgcolor: colours.warning, color: colours.black },
      options: [machine('Understudy', false)],
      callback: ({ options }) => current().machineById(textOption(options['machine']) ?? '')?.takeover?.value === true,
    },
  };
}

const ARMED_ACTIONS: DropdownChoice<string>[] = [
  { id: 'failovermachine', label: 'fail over a machine' },
  { id: 'restoremachine', label: 'restore a machine' },
  { id: 'smc_power', label: 'SMC power' },
  { id: 'renderstream_stop', label: 'RenderStream: stop a layer' },
];

/** The states a shipping director reports for a workload; others are shown in their own words. */
const WORKLOAD_STATES = ['running', 'starting', 'stopped', 'error'] as const;

/** Whether the subject's values (or any value shown, for none) are not live. */
export function isStale(show: Show, subject: string | undefined): boolean {
  const machines = [...show.machines.values()];
  const listFresh = freshnessOfPoll(show.transportList.state) === 'live';
  if (subject?.startsWith('machine_')) {
    const watched = show.machineById(subject.slice('machine_'.length));
    return !watched || watched.fps.freshness !== 'live';
  }
  if (subject?.startsWith('layer_')) {
    return !show.renderStream.layerById(subject.slice('layer_'.length)) || show.renderStream.freshness !== 'live';
  }
  if (subject?.startsWith('transport_')) {
    const watched = show.transportById(subject.slice('transport_'.length));
    return !watched || !listFresh || watched.levels.volume.freshness === 'stale' || watched.levels.brightness.freshness === 'stale';
  }
  return (
    [show.session, show.health, show.transportList].some((poll) => freshnessOfPoll(poll.state) !== 'live') ||
    machines.some((machine) => machine.fps.freshness !== 'live') ||
    // Layers count once the director has shown some: a build without RenderStream has none to be stale.
    (show.renderStream.layers.length > 0 && show.renderStream.freshness !== 'live')
  );
}

/**
 * The show clock's feedbacks, re-checked on the module's clock tick when what they read changed. Each is false
 * unless the transport's clock is live: a stale or offline clock shows `clock_stale` and nothing else.
 */
export function clockFeedbackDefinitions(current: () => Show, choices: Pick<FeedbackChoices, 'transports'>): Record<ClockFeedbackId, CompanionFeedbackDefinition> {
  const transport = { type: 'dropdown', id: 'transport', label: 'Transport', choices: choices.transports, default: choices.transports[0]?.id ?? '', allowCustom: true } as const;
  const clockOf = (options: Options) => {
    const name = textOption(options['transport']);
    return name === undefined ? undefined : current().watchOf(name)?.clock;
  };
  return {
    clock_remaining_below: {
      type: 'boolean',
      name: 'Show clock: section remaining below N seconds',
      defaultStyle: { bgcolor: colours.warning, color: colours.black },
      options: [
        transport,
        { type: 'number', id: 'seconds', label: 'Below (seconds)', default: 10, min: 0, max: 86_400, step: 0.5 },
        { type: 'checkbox', id: 'blink', label: 'Blink (on and off each half second)', default: false },
      ],
      callback: ({ options }) => {
        const clock = clockOf(options);
        const below = numberOption(options['seconds'], 'number of seconds') ?? 10;
        if (!isLiveClock(clock) || !clock.section || clock.section.remaining >= below) return false;
        return options['blink'] === true ? blinkOn() : true;
      },
    },
    clock_in_section: {
      type: 'boolean',
      name: 'Show clock: in a section',
      defaultStyle: { bgcolor: colours.ok, color: colours.white },
      options: [transport, { type: 'number', id: 'section', label: 'Section (index, from 0)', default: 0, min: 0, max: 9999 }],
      callback: ({ options }) => {
        const clock = clockOf(options);
        return isLiveClock(clock) && clock.section !== undefined && clock.section.index === numberOption(options['section'], 'section');
      },
    },
    clock_stale: {
      type: 'boolean',
      name: 'Show clock: not live (stale or offline)',
      defaultStyle: { bgcolor: colours.noLink, color: colours.white },
      options: [transport],
      callback: ({ options }) => !isLiveClock(clockOf(options)),
    },
  };
}
