/**
 * Ready-made buttons, grouped so a desk is built by dragging: per transport (play, stop, loop, next and previous
 * track, each lit for its own state, level steps, the show clock's section countdown in big digits), per machine
 * (an FPS tile and a health tile), the failover pairs showing the armed state, and per machine with an SMC in the
 * settings its power status and faults, identify, power on and off, and an OLED message; per RenderStream layer its
 * workload's state (a press restarts it), start, sync and stop.
 */
import type { CompanionPresetDefinitions, CompanionPresetSection, CompanionSimplePresetDefinition } from '@companion-module/base';
import type { Show } from '../show/show.js';
import { colours } from './colours.js';
import { ACTIVE_TRANSPORT } from './transport-actions.js';

const style = (text: string, bgcolor: number = colours.neutral) => ({ text, size: 'auto' as const, color: colours.white, bgcolor });
const staleLook = { bgcolor: colours.noLink, color: colours.white };

/**
 * A dial for a level (an encoder of a Stream Deck +, a Loupedeck): turning it steps the level by 0.05 a detent
 * through `volume_adjust` / `brightness_adjust`, whose `step` option sets the size; pressing it does nothing.
 */
function dial(transport: string, shown: string, which: 'volume' | 'brightness', feedbacks: CompanionSimplePresetDefinition['feedbacks']): CompanionSimplePresetDefinition {
  const step = (by: number) => [{ actionId: `${which}_adjust`, options: { transport, step: by } }];
  return {
    type: 'simple',
    name: `${transport === ACTIVE_TRANSPORT ? 'Active transport' : transport}: ${which} dial (turn to step)`,
    style: style(`${which === 'volume' ? 'VOL' : 'BRI'}\n${shown}`),
    steps: [{ down: [], up: [], rotate_left: step(-0.05), rotate_right: step(0.05) }],
    feedbacks,
  };
}

/**
 * What a desk needs before the first connection, or whatever the session holds: the link, the session's health and
 * the last cue; the active transport's cues and dials (they name no transport, so they work with any project).
 */
function sessionPresets(presets: CompanionPresetDefinitions, label: string): { session: string[]; active: string[] } {
  const session: string[] = [];
  const active: string[] = [];
  const add = (list: string[], id: string, preset: CompanionSimplePresetDefinition): void => {
    presets[id] = preset;
    list.push(id);
  };
  add(session, 'session_link', {
    type: 'simple',
    name: 'Link to the server',
    style: style(`LINK\n$(${label}:link)`),
    steps: [],
    feedbacks: [{ feedbackId: 'link', options: {}, style: { bgcolor: colours.noLink, color: colours.white, text: 'NO LINK' } }],
  });
  add(session, 'session_health', { type: 'simple', name: 'Health of the session', style: style('SESSION'), steps: [], feedbacks: [{ feedbackId: 'health', options: { machine: '' } }] });
  add(session, 'session_last_cue', {
    type: 'simple',
    name: 'The last cue from here (red when it failed)',
    style: style('LAST CUE'),
    steps: [],
    feedbacks: [{ feedbackId: 'last_cue_failed', options: { transport: '' }, style: { bgcolor: colours.error, color: colours.white, text: 'LAST CUE\nFAILED' } }],
  });
  const cue = (command: string, text: string): CompanionSimplePresetDefinition => ({
    type: 'simple',
    name: `Active transport: ${text.replace(/\n/g, ' ')}`,
    style: style(`${text}\nACTIVE`),
    steps: [{ down: [{ actionId: command, options: { transport: ACTIVE_TRANSPORT } }], up: [] }],
    feedbacks: [],
  });
  add(active, 'active_play', cue('play', 'PLAY'));
  add(active, 'active_stop', cue('stop', 'STOP'));
  add(active, 'active_next', cue('gotonexttrack', 'NEXT'));
  add(active, 'active_prev', cue('gotoprevtrack', 'PREV'));
  add(active, 'active_volume_dial', dial(ACTIVE_TRANSPORT, 'ACTIVE', 'volume', []));
  add(active, 'active_brightness_dial', dial(ACTIVE_TRANSPORT, 'ACTIVE', 'brightness', []));
  return { session, active };
}

/** `label` is the connection's name, which Companion's variable references start with. */
export function presetDefinitions(show: Show, label: string): { structure: CompanionPresetSection[]; presets: CompanionPresetDefinitions } {
  const presets: CompanionPresetDefinitions = {};
  const transportGroups = [...show.transports.values()].map((transport) => {
    // Each cue lights for the state it puts the transport in (PLAY while playing, STOP while stopped, LOOP while
    // looping its section); a move to another track has no state of its own and never lights.
    const lit = (state: 'playing' | 'Stop' | 'Loop' | undefined): CompanionSimplePresetDefinition['feedbacks'] => {
      if (state === undefined) return [];
      const look = { bgcolor: colours.ok, color: colours.white };
      return [state === 'playing' ? { feedbackId: 'playing', options: { transport: transport.name }, style: look } : { feedbackId: 'playmode', options: { transport: transport.name, playmode: state }, style: look }];
    };
    const cue = (command: string, text: string, state: 'playing' | 'Stop' | 'Loop' | undefined): CompanionSimplePresetDefinition => ({
      type: 'simple',
      name: `${transport.name}: ${text.replace(/\n/g, ' ')}`,
      style: style(text),
      steps: [{ down: [{ actionId: command, options: { transport: transport.name } }], up: [] }],
      feedbacks: [...lit(state), { feedbackId: 'stale', options: { subject: `transport_${transport.id}` }, style: staleLook }],
    });
    const level = (which: 'volume' | 'brightness', step: number): CompanionSimplePresetDefinition => ({
      type: 'simple',
      name: `${transport.name}: ${which} ${step > 0 ? 'up' : 'down'}`,
      style: style(`${which === 'volume' ? 'VOL' : 'BRI'} ${step > 0 ? '+' : '-'}\n$(${label}:transport_${transport.id}_${which})`),
      steps: [{ down: [{ actionId: `${which}_adjust`, options: { transport: transport.name, step } }], up: [] }],
      feedbacks: [{ feedbackId: 'stale', options: { subject: `transport_${transport.id}` }, style: staleLook }],
    });
    const ids: string[] = [];
    const add = (key: string, preset: CompanionSimplePresetDefinition): void => {
      const id = `transport_${transport.id}_${key}`;
      presets[id] = preset;
      ids.push(id);
    };
    add('play', cue('play', 'PLAY', 'playing'));
    add('stop', cue('stop', 'STOP', 'Stop'));
    add('loop', cue('playloopsection', 'LOOP\nSECTION', 'Loop'));
    add('next', cue('gotonexttrack', 'NEXT\nTRACK', undefined));
    add('prev', cue('gotoprevtrack', 'PREV\nTRACK', undefined));
    add('volume_up', level('volume', 0.05));
    add('volume_down', level('volume', -0.05));
    add('brightness_up', level('brightness', 0.05));
    add('brightness_down', level('brightness', -0.05));
    add('volume_dial', dial(transport.name, `$(${label}:transport_${transport.id}_volume)`, 'volume', [{ feedbackId: 'stale', options: { subject: `transport_${transport.id}` }, style: staleLook }]));
    add('brightness_dial', dial(transport.name, `$(${label}:transport_${transport.id}_brightness)`, 'brightness', [{ feedbackId: 'stale', options: { subject: `transport_${transport.id}` }, style: staleLook }]));
    add('last_result', {
      type: 'simple',
      name: `${transport.name}: the last cue's outcome`,
      style: style(`LAST CUE\n$(${label}:transport_${transport.id}_last_result)`),
      steps: [],
      feedbacks: [{ feedbackId: 'last_cue_failed', options: { transport: transport.name }, style: { bgcolor: colours.error, color: colours.white } }],
    });
    // Big digits: the section's countdown, orange under 10 s, grey with the word STALE while the clock is not live.
    add('clock', {
      type: 'simple',
      name: `${transport.name}: section remaining (big digits)`,
      style: { text: `$(${label}:transport_${transport.id}_section_remaining_countdown)`, size: '44', color: colours.white, bgcolor: colours.neutral },
      steps: [],
      feedbacks: [
        { feedbackId: 'clock_remaining_below', options: { transport: transport.name, seconds: 10, blink: false }, style: { bgcolor: colours.warning, color: colours.black } },
        { feedbackId: 'clock_stale', options: { transport: transport.name }, style: { ...staleLook, text: 'STALE', size: '24' } },
      ],
    });
    return { id: `transport_${transport.id}`, type: 'simple' as const, name: transport.name, presets: ids };
  });
  const machineGroups = [...show.machines.values()].map((machine) => {
    const fps = `machine_${machine.id}_fps`;
    const health = `machine_${machine.id}_health`;
    presets[fps] = {
      type: 'simple',
      name: `${machine.name}: FPS`,
      style: style(`${machine.name}\n$(${label}:machine_${machine.id}_fps) FPS`),
      steps: [],
      feedbacks: [
        { feedbackId: 'fps_alert', options: { machine: machine.id } },
        { feedbackId: 'stale', options: { subject: `machine_${machine.id}` }, style: staleLook },
      ],
    };
    presets[health] = {
      type: 'simple',
      name: `${machine.name}: health`,
      style: style(machine.name),
      steps: [],
      feedbacks: [{ feedbackId: 'health', options: { machine: machine.id } }],
    };
    return { id: `machine_${machine.id}`, type: 'simple' as const, name: machine.name, presets: [fps, health] };
  });
  const failover: string[] = [];
  for (const machine of show.machines.values()) {
    if (machine.role !== 'actor') continue;
    for (const operation of ['failovermachine', 'restoremachine'] as const) {
      const id = `${operation}_${machine.id}`;
      presets[id] = {
        type: 'simple',
        name: `${operation === 'failovermachine' ? 'Fail over' : 'Restore'} ${machine.name} (two presses)`,
        style: style(`${operation === 'failovermachine' ? 'FAIL OVER' : 'RESTORE'}\n${machine.name}`),
        steps: [{ down: [{ actionId: operation, options: { machine: machine.name } }], up: [] }],
        feedbacks: [{ feedbackId: 'armed', options: { action: operation, target: machine.name }, style: { bgcolor: colours.attention, color: colours.black } }],
      };
      failover.push(id);
    }
  }
  const hardwareGroups = [...show.power.values()].map((watch) => {
    const machine = watch.hostname;
    const ids: string[] = [];
    const add = (key: string, preset: CompanionSimplePresetDefinition): void => {
      const id = `smc_${watch.id}_${key}`;
      presets[id] = preset;
      ids.push(id);
    };
    const press = (actionId: string, options: Record<string, string | number>) => [{ down: [{ actionId, options: { machine, ...options } }], up: [] }];
    const faultLook = { bgcolor: colours.error, color: colours.white, text: `${machine}\nPOWER FAULT` };
    add('power', {
      type: 'simple',
      name: `${machine}: power (status, fault)`,
      style: style(`${machine}\n$(${label}:smc_${watch.id}_power)`),
      steps: [],
      feedbacks: [
        { feedbackId: 'power', options: { machine, state: 'on' }, style: { bgcolor: colours.ok, color: colours.white } },
        { feedbackId: 'power_fault', options: { machine }, style: faultLook },
      ],
    });
    add('hardware', {
      type: 'simple',
      name: `${machine}: hardware (fans, temperatures, power flags, output cards)`,
      style: style(`${machine}\n$(${label}:smc_${watch.id}_hardware_fault)\n$(${label}:smc_${watch.id}_hottest)°C`),
      steps: [],
      feedbacks: [
        { feedbackId: 'hardware_fault', options: { machine, level: 'warning' }, style: { bgcolor: colours.warning, color: colours.black } },
        { feedbackId: 'hardware_fault', options: { machine, level: 'error' }, style: { bgcolor: colours.error, color: colours.white } },
      ],
    });
    add('whoami', { type: 'simple', name: `${machine}: identify (blink)`, style: style(`WHO AM I\n${machine}`), steps: press('smc_whoami', {}), feedbacks: [] });
    add('power_on', {
      type: 'simple',
      name: `${machine}: power on`,
      style: style(`POWER ON\n${machine}`),
      steps: press('smc_power', { power: 'on' }),
      feedbacks: [{ feedbackId: 'power', options: { machine, state: 'on' }, style: { bgcolor: colours.ok, color: colours.white } }],
    });
    add('power_off', {
      type: 'simple',
      name: `${machine}: power off (two presses)`,
      style: style(`POWER OFF\n${machine}`),
      steps: press('smc_power', { power: 'off' }),
      feedbacks: [{ feedbackId: 'armed', options: { action: 'smc_power', target: `off ${machine}` }, style: { bgcolor: colours.attention, color: colours.black } }],
    });
    add('oled', {
      type: 'simple',
      name: `${machine}: OLED message for 10 s`,
      style: style(`OLED\n${machine}`),
      steps: press('oled_message', { title: '', message: 'Places, please', priority: 0, displayTime: 10 }),
      feedbacks: [],
    });
    return { id: `smc_${watch.id}`, type: 'simple' as const, name: `${machine} (SMC)`, presets: ids };
  });
  const layerGroups = show.renderStream.layers.map(({ id, layer }) => {
    const ids: string[] = [];
    const add = (key: string, preset: CompanionSimplePresetDefinition): void => {
      const presetId = `layer_${id}_${key}`;
      presets[presetId] = preset;
      ids.push(presetId);
    };
    const press = (actionId: string) => [{ down: [{ actionId, options: { layer: layer.name } }], up: [] }];
    // The workload's tile restarts it: what an operator does to a crashed workload, at one press.
    add('workload', { type: 'simple', name: `${layer.name}: workload state (press: restart)`, style: style(layer.name), steps: press('renderstream_restart'), feedbacks: [{ feedbackId: 'layer_workload', options: { layer: layer.name } }] });
    add('start', { type: 'simple', name: `${layer.name}: start`, style: style(`START\n${layer.name}`), steps: press('renderstream_start'), feedbacks: [] });
    add('sync', { type: 'simple', name: `${layer.name}: sync`, style: style(`SYNC\n${layer.name}`), steps: press('renderstream_sync'), feedbacks: [] });
    add('stop', {
      type: 'simple',
      name: `${layer.name}: stop (two presses)`,
      style: style(`STOP\n${layer.name}`),
      steps: press('renderstream_stop'),
      feedbacks: [{ feedbackId: 'armed', options: { action: 'renderstream_stop', target: layer.name }, style: { bgcolor: colours.attention, color: colours.black } }],
    });
    return { id: `layer_${id}`, type: 'simple' as const, name: layer.name, presets: ids };
  });
  const { session, active } = sessionPresets(presets, label);
  const structure: CompanionPresetSection[] = [
    { id: 'session', name: 'Session: link, health, last cue', definitions: session },
    { id: 'active', name: 'Active transport (as the director reports it at the press)', definitions: active },
    { id: 'transports', name: 'Transports', definitions: transportGroups },
    { id: 'machines', name: 'Machines: FPS and health', definitions: machineGroups },
    { id: 'failover', name: 'Failover (two presses: the first arms)', definitions: failover },
    ...(layerGroups.length > 0 ? [{ id: 'renderstream', name: 'RenderStream layers (stop takes two presses)', definitions: layerGroups }] : []),
    ...(hardwareGroups.length > 0 ? [{ id: 'hardware', name: 'Hardware: each machine\u2019s SMC (power off takes two presses)', definitions: hardwareGroups }] : []),
  ];
  return { structure, presets };
}
