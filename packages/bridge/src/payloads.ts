import type { TransportStateValue } from './session-events.js';
import { healthOf, isPlaying, toPlaymode, worstHealth, type HealthEntry, type HealthState, type Transport } from '@stagelink/core';

/** `machines/<hostname>/health`: the machine's worst severity (core's rule) and the states behind it. */
export function machineHealthPayload(entries: readonly HealthEntry[], hostname: string): { severity: string; states: HealthState[] } {
  return {
    severity: worstHealth(entries, hostname),
    states: healthOf(entries, hostname).flatMap((entry) => entry.status.states.map(({ name, detail, category, severity }) => ({ name, detail, category, severity }))),
  };
}

/** `session/health`: the worst severity of the session. */
export function sessionHealthPayload(entries: readonly HealthEntry[]): { severity: string } {
  return { severity: worstHealth(entries) };
}

/** `transports/<name>/state`, playmodes in core's words whichever vocabulary the director speaks. */
export function transportPayload(transport: Transport): TransportStateValue {
  return {
    playmode: toPlaymode(transport.playmode),
    playing: isPlaying(transport),
    track: transport.currentTrack?.name ?? null,
    volume: transport.volume,
    brightness: transport.brightness,
    engaged: transport.engaged,
  };
}

