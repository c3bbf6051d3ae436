import type { FpsAlert, HardwareSnapshot, HealthState, LinkStatus, ShowClockSnapshot } from '@stagelink/core';
import type { StaleReason } from './stale-reasons.js';

/**
 * The session's state inside the bridge, as one typed stream: what a value is about (a machine, a transport, the
 * session, its director, the bridge's own link to it), which one, the part, the value and its marks. The outputs (MQTT topics, OSC, Home
 * Assistant, Prometheus, the summary, the show log) are adapters of this stream: none of them reads a topic string
 * to learn what a value is.
 */

/** A machine, transport or RenderStream layer of the session: what comes (`added`) and goes (`removed`). */
export interface Member {
  what: 'machine' | 'transport' | 'layer';
  /** The machine's hostname, the transport's or the layer's name, as the director spells it. */
  which: string;
}

/** A value that can no longer be seen keeps its last value, marked with why. */
export interface Marks {
  stale: true;
  reason: StaleReason;
}

export interface FpsValue {
  value: number;
  average: number;
  alert: FpsAlert;
}
export interface MachineHealthValue {
  severity: string;
  states: Pick<HealthState, 'name' | 'detail' | 'category' | 'severity'>[];
}
export interface TransportStateValue {
  playmode: string;
  playing: boolean;
  track: string | null;
  volume: unknown;
  brightness: unknown;
  engaged: unknown;
}
/** A RenderStream layer's workload, as the director's layer list reports it. */
export interface LayerWorkloadValue {
  name: string;
  uid: string;
  state: string;
  message?: string;
}
export interface DirectorValue {
  hostname: string | null;
  url: string;
}

/** Each part of the session's state with the shape of its value. */
export type SessionValue =
  | { what: 'machine'; which: string; part: 'fps'; value: FpsValue }
  | { what: 'machine'; which: string; part: 'health'; value: MachineHealthValue }
  | { what: 'machine'; which: string; part: 'takeover'; value: { value: boolean } }
  /** The machine's hardware as its management controller reports it (only machines with an SMC given). */
  | { what: 'machine'; which: string; part: 'hardware'; value: HardwareSnapshot }
  | { what: 'transport'; which: string; part: 'state'; value: TransportStateValue }
  | { what: 'transport'; which: string; part: 'clock'; value: ShowClockSnapshot }
  | { what: 'layer'; which: string; part: 'workload'; value: LayerWorkloadValue }
  | { what: 'session'; part: 'health'; value: { severity: string } }
  | { what: 'director'; part: 'director'; value: DirectorValue }
  /** The bridge's live-update stream to the director: while it is not `online`, no live value is seen. */
  | { what: 'bridge'; part: 'link'; value: { status: LinkStatus } };

/** One value of the stream with its marks (none while it is live). */
export type StateEvent = SessionValue & { marks?: Marks };

export type StatePart = StateEvent['part'];

/** The parts a machine, a transport and a layer have: what leaves with them. */
export const MEMBER_PARTS = { machine: ['fps', 'health', 'takeover', 'hardware'], transport: ['state', 'clock'], layer: ['workload'] } as const;

/** One key per value of the stream: `machine fps node-a`. */
export function stateKey(event: { what: string; part: string; which?: string }): string {
  return event.which === undefined ? `${event.what} ${event.part}` : `${event.what} ${event.part} ${event.which}`;
}

/** Whether a value belongs to a member (a machine's FPS to that machine). */
export function belongsTo(event: StateEvent, member: Member): boolean {
  return event.what === member.what && 'which' in event && event.which === member.which;
}

/** The value as its retained payload carries it: the value's fields, then `stale` and `reason` while marked. */
export function payloadOf(event: StateEvent): Record<string, unknown> {
  return event.marks ? { ...event.value, stale: true, reason: event.marks.reason } : { ...event.value };
}

/**
 * An output of the bridge: told every value as it changes (a new value, a new mark), every machine and transport
 * that comes and goes, and closed once. `start` is called once every adapter exists, before the first event.
 */
export interface BridgeAdapter {
  start?(): void;
  state(event: StateEvent): void;
  added?(member: Member): void;
  removed(member: Member): void;
  close(): void | Promise<void>;
}
