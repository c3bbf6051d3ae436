import { hottestAndSlowest, judgeReadings, type HardwareSeverity, type HardwareThresholds } from './judge.js';
import type { FanReading, HardwareReadings, OutputCardReading, TemperatureReading } from './readings.js';

/**
 * - `online`: the last poll was answered; the readings are from it.
 * - `stale`: the last poll was answered with an error (a 500, an answer not in the API's shape): the readings are
 *   the last good ones, from `readAt`, kept so a tile can show them as old, never as now.
 * - `offline`: the last poll was not answered by its deadline: no readings are shown.
 */
export type HardwareStatus = 'online' | 'stale' | 'offline';

/** One machine's hardware as its management controller reports it, judged against the watcher's thresholds. */
export interface HardwareSnapshot {
  /** The machine as the watcher named it (its hostname), or its SMC's address. */
  machine: string;
  status: HardwareStatus;
  power: 'on' | 'off' | undefined;
  /** The fault flags that are set, by the SMC's names (`Main Power Fault`). */
  faults: string[];
  temperatures: TemperatureReading[];
  fans: FanReading[];
  outputs: OutputCardReading[];
  severity: HardwareSeverity;
  /** Why the severity is what it is, in words, errors first; empty when ok. */
  reasons: string[];
  /** When the readings shown were taken (ms since the epoch); undefined when none are shown. */
  readAt?: number;
}

/** What the poll knows of one machine now, before any watcher's thresholds. */
export type PollState =
  | { status: 'online'; readings: HardwareReadings; readAt: number }
  | { status: 'stale'; readings: HardwareReadings; readAt: number; problem: string }
  | { status: 'offline'; problem: string };

/** A poll's state as one watcher sees it: its name for the machine, its thresholds. */
export function snapshotOf(machine: string, state: PollState, thresholds: HardwareThresholds): HardwareSnapshot {
  if (state.status === 'offline') {
    return { machine, status: 'offline', power: undefined, faults: [], temperatures: [], fans: [], outputs: [], severity: 'error', reasons: [state.problem] };
  }
  const { readings, readAt } = state;
  const verdict = judgeReadings(readings, thresholds);
  const reasons = state.status === 'stale' ? [...verdict.reasons, state.problem] : verdict.reasons;
  const severity = state.status === 'stale' && verdict.severity === 'ok' ? 'warning' : verdict.severity;
  return {
    machine,
    status: state.status,
    power: readings.power,
    faults: [...readings.faults],
    temperatures: readings.temperatures.map((each) => ({ ...each })),
    fans: readings.fans.map((each) => ({ ...each })),
    outputs: readings.outputs.map((each) => ({ ...each })),
    severity,
    reasons,
    readAt,
  };
}

/** The hottest temperature and the slowest fan of a snapshot, for a variable or a tile that shows one of each. */
export function hardwareSummaryOf(snapshot: Pick<HardwareSnapshot, 'temperatures' | 'fans'>): ReturnType<typeof hottestAndSlowest> {
  return hottestAndSlowest(snapshot);
}

/** A short word for a tile or a variable: FAN, HOT, POWER, OUTPUT, OFFLINE, or OK. */
export function hardwareFaultWord(snapshot: Pick<HardwareSnapshot, 'status' | 'severity' | 'reasons' | 'faults'>): string {
  if (snapshot.status === 'offline') return 'OFFLINE';
  if (snapshot.faults.length > 0) return 'POWER';
  const first = snapshot.reasons[0] ?? '';
  if (/RPM/.test(first)) return 'FAN';
  if (/°C/.test(first)) return 'HOT';
  if (/output card/.test(first)) return 'OUTPUT';
  if (/powered off/.test(first)) return 'POWER';
  return snapshot.severity === 'ok' ? 'OK' : 'STALE';
}
