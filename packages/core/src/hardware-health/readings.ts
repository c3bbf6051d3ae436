/**
 * What a management controller's answers say, read from its strings. `chassis/stats` is an object of strings
 * (`"Fan 1": "5400 RPM"`, `"CPU Temp": "41 degrees C"`, `"Main Power Fault": "false"`); shipping SMCs answer
 * `chassis/power/status` as flags, booleans or words; `vfcs` lists the video formatting cards. Pure: no I/O.
 */

export interface TemperatureReading {
  sensor: string;
  celsius: number;
}

export interface FanReading {
  sensor: string;
  rpm: number;
}

export interface OutputCardReading {
  slot: number;
  type: string;
  status: string;
}

/** One poll's readings of one machine. */
export interface HardwareReadings {
  /** From `System Power` (power status first, then the stats); undefined when neither says on or off. */
  power: 'on' | 'off' | undefined;
  /** The names of the fault flags that are set (`Main Power Fault`), in the order the SMC lists them. */
  faults: string[];
  temperatures: TemperatureReading[];
  fans: FanReading[];
  outputs: OutputCardReading[];
}

/** Flag words as SMC firmwares write them: a flag is set, or clear, or unknown. */
const SET_WORDS = new Set(['true', 'yes', 'on', 'set', 'active', 'asserted', 'fault', 'failed', 'failure', '1']);
const CLEAR_WORDS = new Set(['false', 'no', 'off', 'clear', 'cleared', 'inactive', 'deasserted', 'ok', 'normal', 'none', '0']);

/** Keys that name a fault flag: the power flags and the like (`Cooling/Fan Fault`, `Drive Fault`). */
const FAULT_KEY = /fault|overload|fail|alarm|intrusion/i;

const RPM = /^\s*(\d+(?:\.\d+)?)\s*rpm\s*$/i;
const CELSIUS = /^\s*(-?\d+(?:\.\d+)?)\s*(?:°\s*C|degrees?\s*C(?:elsius)?|C)\s*$/i;
const FAHRENHEIT = /^\s*(-?\d+(?:\.\d+)?)\s*(?:°\s*F|degrees?\s*F(?:ahrenheit)?|F)\s*$/i;
const BARE_NUMBER = /^\s*(-?\d+(?:\.\d+)?)\s*$/;

/** A flag as a boolean: `true`, `"true"`, `"Yes"`, `"asserted"` are set; undefined for anything else. */
export function readFlag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (SET_WORDS.has(word)) return true;
  if (CLEAR_WORDS.has(word)) return false;
  return undefined;
}

/** `"5400 RPM"` as 5400; a bare number counts when the sensor's name says fan. Undefined for anything else. */
export function readRpm(sensor: string, value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') return undefined;
  const match = RPM.exec(text) ?? (/fan/i.test(sensor) ? BARE_NUMBER.exec(text) : null);
  const rpm = match?.[1] === undefined ? undefined : Number(match[1]);
  return rpm !== undefined && Number.isFinite(rpm) && rpm >= 0 ? rpm : undefined;
}

/**
 * `"41 degrees C"`, `"41 °C"` or `"41C"` as 41; Fahrenheit is converted; a bare number counts when the sensor's
 * name says temp. Undefined for anything else.
 */
export function readCelsius(sensor: string, value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') return undefined;
  const celsius = CELSIUS.exec(text) ?? (/temp/i.test(sensor) ? BARE_NUMBER.exec(text) : null);
  if (celsius?.[1] !== undefined) return finite(Number(celsius[1]));
  const fahrenheit = FAHRENHEIT.exec(text);
  if (fahrenheit?.[1] !== undefined) return finite(Math.round(((Number(fahrenheit[1]) - 32) * 5) / 9 * 10) / 10);
  return undefined;
}

/** `on` / `off` from a `System Power` value or the documents' Message ("Chassis Power is on"). */
export function readPowerWord(value: unknown): 'on' | 'off' | undefined {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (word === 'on' || word === 'off') return word;
  const said = /\bpower is (on|off)\b/i.exec(value)?.[1]?.toLowerCase();
  return said === 'on' || said === 'off' ? said : undefined;
}

/**
 * The readings of one poll from the three answers; `undefined` for an answer that did not come (a build without
 * `vfcs`, a power status behind a login): what it would have said is left out, never guessed.
 */
export function readHardware(answers: { stats: unknown; powerStatus?: unknown; outputs?: unknown }): HardwareReadings {
  const stats = objectOf(answers.stats);
  const powerStatus = objectOf(answers.powerStatus);
  const temperatures: TemperatureReading[] = [];
  const fans: FanReading[] = [];
  const faults: string[] = [];
  for (const [sensor, value] of Object.entries(stats)) {
    if (/^system power$/i.test(sensor.trim())) continue;
    if (FAULT_KEY.test(sensor)) {
      if (readFlag(value) === true) faults.push(sensor);
      continue;
    }
    const rpm = readRpm(sensor, value);
    if (rpm !== undefined) {
      fans.push({ sensor, rpm });
      continue;
    }
    const celsius = readCelsius(sensor, value);
    if (celsius !== undefined) temperatures.push({ sensor, celsius });
  }
  // The power status may name flags the stats lack, or say them otherwise: a flag set in either is set.
  for (const [key, value] of Object.entries(powerStatus)) {
    if (!FAULT_KEY.test(key) || readFlag(value) !== true) continue;
    if (!faults.some((known) => known.toLowerCase() === key.toLowerCase())) faults.push(key);
  }
  const power = readPowerWord(powerStatus['System Power']) ?? readPowerWord(powerStatus['message']) ?? readPowerWord(stats['System Power']);
  return { power, faults, temperatures, fans, outputs: readOutputCards(answers.outputs) };
}

/** The cards of a `vfcs` answer; entries without a slot are left out. */
export function readOutputCards(answer: unknown): OutputCardReading[] {
  if (!Array.isArray(answer)) return [];
  const cards: OutputCardReading[] = [];
  for (const entry of answer as unknown[]) {
    const card = objectOf(entry);
    const slot = typeof card['slot'] === 'number' ? card['slot'] : typeof card['slot'] === 'string' ? Number(card['slot']) : NaN;
    if (!Number.isFinite(slot)) continue;
    cards.push({ slot, type: typeof card['type'] === 'string' ? card['type'] : '', status: typeof card['status'] === 'string' ? card['status'] : '' });
  }
  return cards;
}

function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function finite(value: number): number | undefined {
  return Number.isFinite(value) ? value : undefined;
}
