/**
 * The module's variables: `director`, `link`, `health`, and per machine, per transport and per RenderStream layer of
 * the session, their ids from core's variable-id rule. A value that is not live shows `stale` or `no link`, never the last value.
 */
import type { CompanionVariableDefinitions, CompanionVariableValues } from '@companion-module/base';
import { PLAYMODE_LABELS, worstHealth, type Playmode } from '@stagelink/core';
import { type Freshness, freshnessOfPoll, shownWhenNotLive } from '../show/freshness.js';
import type { HardwareHealthWatch } from '../show/hardware-watch.js';
import type { MachineWatch } from '../show/machine-watch.js';
import { playStateOf } from '../show/play-state.js';
import type { Show } from '../show/show.js';

/** `link`: ok, connecting, no link, mtu (reachable, large answers fail) or live down (cues work, values not live). */
export type LinkWord = 'ok' | 'connecting' | 'no link' | 'mtu' | 'live down';

const MACHINE_VARIABLES = {
  fps: 'FPS',
  fps_avg: 'FPS, rolling average',
  fps_alert: 'FPS alert (ok, warning, error)',
  health: 'health (worst severity)',
  role: 'role (director, actor, understudy)',
  takeover: 'has taken over a failed actor',
} as const;

const HARDWARE_VARIABLES = {
  hardware: 'hardware severity from its SMC (ok, warning, error; stale or offline when the SMC does not answer)',
  hardware_fault: 'hardware fault in a word (FAN, HOT, POWER, OUTPUT, OFFLINE, STALE, OK)',
  hardware_reasons: 'why the hardware severity is what it is, in words',
  hottest: 'hottest temperature (°C)',
  hottest_sensor: 'the sensor reading the hottest temperature',
  slowest_fan: 'slowest fan (RPM)',
  slowest_fan_sensor: 'the slowest fan',
} as const;

const TRANSPORT_VARIABLES = {
  playmode: 'playmode',
  playing: 'playing',
  track: 'current track',
  section: 'section last sent from here',
  volume: 'volume (0 to 1)',
  brightness: 'brightness (0 to 1)',
  last_result: 'what became of the last cue from here (ok, failed, landed late, outcome unknown, refused: link down)',
} as const;

const LAYER_VARIABLES = {
  name: 'RenderStream layer name',
  state: 'workload state (running, starting, stopped, error)',
  message: 'workload message (why it is in error, when the director says)',
} as const;

export function variableDefinitions(show: Show): CompanionVariableDefinitions {
  const definitions: CompanionVariableDefinitions = {
    director: { name: 'Director of the session' },
    link: { name: 'Link to the server (ok, connecting, no link, mtu, live down)' },
    health: { name: 'Health of the session (worst severity)' },
    last_error: { name: 'Why the last cue from here failed (empty after one that went through)' },
  };
  for (const machine of show.machines.values()) {
    for (const [suffix, name] of Object.entries(MACHINE_VARIABLES)) definitions[`machine_${machine.id}_${suffix}`] = { name: `${machine.name}: ${name}` };
  }
  for (const transport of show.transports.values()) {
    for (const [suffix, name] of Object.entries(TRANSPORT_VARIABLES)) definitions[`transport_${transport.id}_${suffix}`] = { name: `${transport.name}: ${name}` };
  }
  for (const { id, layer } of show.renderStream.layers) {
    for (const [suffix, name] of Object.entries(LAYER_VARIABLES)) definitions[`layer_${id}_${suffix}`] = { name: `${layer.name}: ${name}` };
  }
  for (const watch of show.hardware.values()) {
    for (const [suffix, name] of Object.entries(HARDWARE_VARIABLES)) definitions[`smc_${watch.id}_${suffix}`] = { name: `${watch.hostname}: ${name}` };
  }
  for (const watch of show.power.values()) {
    definitions[`smc_${watch.id}_power`] = { name: `${watch.hostname}: power from its SMC (on, off)` };
    definitions[`smc_${watch.id}_power_fault`] = { name: `${watch.hostname}: a power fault reported by its SMC (empty when the SMC does not report faults)` };
  }
  return definitions;
}

const shown = <T>(freshness: Freshness, value: () => T): T | string => (freshness === 'live' ? value() : shownWhenNotLive(freshness));
const round = (value: number, places: number): number => Math.round(value * 10 ** places) / 10 ** places;

export function variableValues(show: Show, frameRate: number, link: LinkWord): CompanionVariableValues {
  const session = freshnessOfPoll(show.session.state);
  const health = freshnessOfPoll(show.health.state);
  const values: CompanionVariableValues = {
    director: shown(session, () => show.session.value?.director?.hostname ?? ''),
    link,
    health: shown(health, () => worstHealth(show.health.value ?? [])),
    last_error: show.lastError,
  };
  for (const machine of show.machines.values()) Object.assign(values, machineValues(show, machine, frameRate, { session, health }));
  for (const watch of show.hardware.values()) Object.assign(values, hardwareValues(watch));
  for (const watch of show.power.values()) {
    const power = freshnessOfPoll(watch.status.state);
    values[`smc_${watch.id}_power`] = shown(power, () => watch.status.value?.systemPower ?? '');
    // The documents' answer reports no fault flags: unknown (''), never a claim that there is no fault.
    values[`smc_${watch.id}_power_fault`] = shown(power, () => watch.fault ?? '');
  }
  // The layer's name says which tile is which even while its workload's state is not live.
  const layers = show.renderStream.freshness;
  for (const { id, layer } of show.renderStream.layers) {
    values[`layer_${id}_name`] = layer.name;
    values[`layer_${id}_state`] = shown(layers, () => layer.workload.state);
    values[`layer_${id}_message`] = shown(layers, () => layer.workload.message ?? '');
  }
  const list = freshnessOfPoll(show.transportList.state);
  for (const transport of show.transports.values()) {
    const entry = show.transportNamed(transport.name);
    const prefix = `transport_${transport.id}_`;
    const listed = entry === undefined && list === 'live' ? 'stale' : list;
    const play = playStateOf(show, transport.name);
    values[`${prefix}playmode`] = shown(play.freshness, () => playmodeWord(play.state?.playmode));
    values[`${prefix}playing`] = shown(play.freshness, () => play.state?.playing ?? false);
    values[`${prefix}track`] = shown(play.freshness, () => play.state?.track ?? '');
    const section = show.sections.get(transport.name);
    values[`${prefix}section`] = shown(listed, () => (section === undefined ? '' : section));
    values[`${prefix}last_result`] = show.lastResults.get(transport.name) ?? '';
    for (const level of ['volume', 'brightness'] as const) {
      const live = transport.levels[level];
      values[`${prefix}${level}`] = shown(live.freshness, () => round(live.value ?? 0, 3));
    }
  }
  return values;
}

function machineValues(show: Show, machine: MachineWatch, frameRate: number, { session, health }: Record<'session' | 'health', Freshness>): CompanionVariableValues {
  const prefix = `machine_${machine.id}_`;
  const fps = machine.fps.freshness;
  const takeover = machine.takeover;
  return {
    [`${prefix}fps`]: shown(fps, () => round(machine.fps.value ?? 0, 1)),
    [`${prefix}fps_avg`]: shown(fps, () => round(machine.averageFps ?? 0, 1)),
    [`${prefix}fps_alert`]: shown(fps, () => machine.alert(frameRate) ?? ''),
    [`${prefix}health`]: shown(health, () => worstHealth(show.health.value ?? [], machine.hostname)),
    // The role is the session read's: while that read fails, the machine may no longer hold it.
    [`${prefix}role`]: shown(session, () => machine.role),
    [`${prefix}takeover`]: takeover ? shown(takeover.freshness, () => takeover.value === true) : false,
  };
}

/** Readings only from a poll the SMC answered: a stale or offline machine shows the word, never an old reading as now. */
function hardwareValues(watch: HardwareHealthWatch): CompanionVariableValues {
  const prefix = `smc_${watch.id}_`;
  const snapshot = watch.snapshot;
  const { hottest, slowest } = watch.summary;
  const notRead = snapshot === undefined ? '' : snapshot.status;
  return {
    [`${prefix}hardware`]: watch.severityWord,
    [`${prefix}hardware_fault`]: watch.faultWord,
    [`${prefix}hardware_reasons`]: snapshot?.reasons.join('; ') ?? '',
    [`${prefix}hottest`]: hottest?.celsius ?? (snapshot?.status === 'online' ? '' : notRead),
    [`${prefix}hottest_sensor`]: hottest?.sensor ?? '',
    [`${prefix}slowest_fan`]: slowest?.rpm ?? (snapshot?.status === 'online' ? '' : notRead),
    [`${prefix}slowest_fan_sensor`]: slowest?.sensor ?? '',
  };
}

function playmodeWord(playmode: Playmode | undefined): string {
  if (playmode === undefined) return '';
  return playmode in PLAYMODE_LABELS ? PLAYMODE_LABELS[playmode as keyof typeof PLAYMODE_LABELS] : playmode.toLowerCase();
}
