/**
 * How bad a machine's readings are, and why, in words: pure, so every front end shows the same verdict for the
 * same readings and thresholds.
 */
import { InvalidInputError } from '../errors.js';
import type { HardwareReadings } from './readings.js';

export type HardwareSeverity = 'ok' | 'warning' | 'error';

/** Limits for one sensor, by its name as the SMC writes it (any case): they win over the general ones. */
export interface SensorLimits {
  minRpm?: number;
  warningCelsius?: number;
  errorCelsius?: number;
}

export interface HardwareThresholds {
  /** A fan under this many RPM is an error (a stopped fan always is). Default 1000. */
  minFanRpm: number;
  /** A temperature over this is a warning. Default 80 °C. */
  warningCelsius: number;
  /** A temperature over this is an error. Default 90 °C. */
  errorCelsius: number;
  /** Limits of single sensors (`{ 'Inlet Temp': { warningCelsius: 35, errorCelsius: 40 } }`). */
  sensors: Readonly<Record<string, SensorLimits>>;
}

export const DEFAULT_HARDWARE_THRESHOLDS: Readonly<HardwareThresholds> = Object.freeze({
  minFanRpm: 1000,
  warningCelsius: 80,
  errorCelsius: 90,
  sensors: Object.freeze({}),
});

export interface HardwareVerdict {
  severity: HardwareSeverity;
  /** Each finding in words, errors first: `Fan 2 has stopped (0 RPM)`. */
  reasons: string[];
}

/** The defaults with a user's changes, checked now: a threshold typed wrong is an error when it is given. */
export function hardwareThresholds(changes: Partial<HardwareThresholds> = {}): HardwareThresholds {
  if (typeof changes !== 'object' || changes === null) throw new InvalidInputError('Hardware thresholds must be an object such as { minFanRpm: 1000, warningCelsius: 80, errorCelsius: 90 }.');
  const thresholds: HardwareThresholds = { ...DEFAULT_HARDWARE_THRESHOLDS, ...definedOf(changes) };
  checkLimit(thresholds.minFanRpm, 'minFanRpm');
  checkLimit(thresholds.warningCelsius, 'warningCelsius');
  checkLimit(thresholds.errorCelsius, 'errorCelsius');
  if (thresholds.warningCelsius > thresholds.errorCelsius) {
    throw new InvalidInputError(`The warning temperature (${thresholds.warningCelsius} °C) is above the error temperature (${thresholds.errorCelsius} °C): the warning line must come first.`);
  }
  if (typeof thresholds.sensors !== 'object' || thresholds.sensors === null) throw new InvalidInputError('sensors must map sensor names to their limits, e.g. { "Inlet Temp": { warningCelsius: 35 } }.');
  for (const [sensor, limits] of Object.entries(thresholds.sensors)) {
    for (const key of ['minRpm', 'warningCelsius', 'errorCelsius'] as const) {
      if (limits?.[key] !== undefined) checkLimit(limits[key], `sensors["${sensor}"].${key}`);
    }
  }
  return thresholds;
}

/**
 * The verdict on one poll's readings: a fault flag set, a stopped fan or one under its floor, a temperature over
 * its error line are errors; a temperature over its warning line, an output card whose status is not ok and power
 * that is off are warnings.
 */
export function judgeReadings(readings: HardwareReadings, thresholds: HardwareThresholds = DEFAULT_HARDWARE_THRESHOLDS): HardwareVerdict {
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const fault of readings.faults) errors.push(`${fault} is set`);
  for (const { sensor, rpm } of readings.fans) {
    const floor = limitsOf(thresholds, sensor).minRpm ?? thresholds.minFanRpm;
    if (rpm === 0) errors.push(`${sensor} has stopped (0 RPM)`);
    else if (rpm < floor) errors.push(`${sensor} runs at ${rpm} RPM, under its ${floor} RPM floor`);
  }
  for (const { sensor, celsius } of readings.temperatures) {
    const limits = limitsOf(thresholds, sensor);
    const errorLine = limits.errorCelsius ?? thresholds.errorCelsius;
    const warningLine = limits.warningCelsius ?? thresholds.warningCelsius;
    if (celsius > errorLine) errors.push(`${sensor} is at ${celsius} °C, over its ${errorLine} °C error line`);
    else if (celsius > warningLine) warnings.push(`${sensor} is at ${celsius} °C, over its ${warningLine} °C warning line`);
  }
  for (const { slot, type, status } of readings.outputs) {
    if (status.trim().toLowerCase() !== 'ok') warnings.push(`the output card in slot ${slot}${type ? ` (${type})` : ''} reports ${status.trim() === '' ? 'no status' : status}`);
  }
  if (readings.power === 'off') warnings.push('the machine is powered off');
  return { severity: errors.length > 0 ? 'error' : warnings.length > 0 ? 'warning' : 'ok', reasons: [...errors, ...warnings] };
}

/** The hottest temperature and the slowest fan, as a tile or a variable shows one number of each. */
export function hottestAndSlowest(readings: Pick<HardwareReadings, 'temperatures' | 'fans'>): { hottest?: { sensor: string; celsius: number }; slowest?: { sensor: string; rpm: number } } {
  const hottest = readings.temperatures.reduce<HardwareReadings['temperatures'][number] | undefined>((top, each) => (top === undefined || each.celsius > top.celsius ? each : top), undefined);
  const slowest = readings.fans.reduce<HardwareReadings['fans'][number] | undefined>((low, each) => (low === undefined || each.rpm < low.rpm ? each : low), undefined);
  return { ...(hottest ? { hottest } : {}), ...(slowest ? { slowest } : {}) };
}

function limitsOf(thresholds: HardwareThresholds, sensor: string): SensorLimits {
  const wanted = sensor.trim().toLowerCase();
  for (const [name, limits] of Object.entries(thresholds.sensors)) if (name.trim().toLowerCase() === wanted) return limits;
  return {};
}

function checkLimit(value: unknown, name: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new InvalidInputError(`Hardware threshold ${name} must be a number (got ${JSON.stringify(value) ?? typeof value}).`);
}

function definedOf<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>;
}
