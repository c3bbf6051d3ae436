/**
 * The settings of each action (the plugin README lists them), read defensively: the Stream Deck app hands over
 * whatever JSON the inspector (or a hand-edited profile) stored, so nothing here trusts a type or throws.
 */

/** JSON as the Stream Deck SDK types it (its own types live in a package the plugin does not depend on). */
export type JsonPrimitive = boolean | number | string | null | undefined;
export type JsonValue = JsonObject | JsonPrimitive | JsonValue[];
export interface JsonObject {
  [key: string]: JsonValue;
}

export const PLUGIN_UUID = 'com.stagelink.mediaserver';

export const ACTION_UUIDS = {
  transport: 'com.stagelink.mediaserver.transport',
  fps: 'com.stagelink.mediaserver.fps',
  health: 'com.stagelink.mediaserver.health',
  level: 'com.stagelink.mediaserver.level',
} as const;

/** `{ "host": "http://10.0.0.5" }`: the session every key talks to unless its own settings name another. */
export interface GlobalSettings extends JsonObject {
  host?: string;
}

export interface TransportKeySettings extends JsonObject {
  command?: string;
  transport?: string;
  track?: string;
  /** 0-based section index; the inspector saves a number, older keys a decimal text. */
  section?: number | string;
  note?: string;
  tagType?: string;
  tagValue?: string;
  time?: number | string;
  timecode?: string;
  frame?: number | string;
  playmode?: string;
  /** Fires only once the key has been held down a moment: for cues a stray touch must not fire (stop, blackout). */
  hold?: boolean;
  host?: string;
}

export interface FpsKeySettings extends JsonObject {
  /** Hostname of the machine; empty for the local machine of the addressed server. */
  machine?: string;
  target?: number | string;
  host?: string;
}

export interface HealthKeySettings extends JsonObject {
  /** Hostname of the machine; empty for the worst of the whole session. */
  machine?: string;
  host?: string;
}

export interface LevelDialSettings extends JsonObject {
  property?: string;
  transport?: string;
  step?: number | string;
  host?: string;
}

/** A trimmed, non-empty string, or undefined. */
export function textSetting(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * A host setting as it was stored: absent or blank is unset; anything else goes to core's originOf as it is,
 * which refuses what is not an address rather than read a number as an IPv4 address (5 is 0.0.0.5).
 */
export function hostSetting(value: JsonValue | undefined): JsonValue | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? textSetting(value) : value;
}

/** A finite number, also from the text an inspector field stores; undefined when absent or not a number. */
export function numberSetting(value: JsonValue | undefined): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  const text = textSetting(value);
  if (text === undefined) return undefined;
  const number = Number(text);
  return Number.isFinite(number) ? number : undefined;
}

/** A 0-based index (0, 1, 2, ...) as a number or decimal text; undefined for anything else. */
export function indexSetting(value: JsonValue | undefined): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  const text = textSetting(value);
  return text !== undefined && /^\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : undefined;
}

/** Settings arrive as any JSON; anything but an object is taken as "nothing set". */
export function asSettings<T extends JsonObject>(value: unknown): T {
  return (value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}) as T;
}

export type HostChoice = { kind: 'host'; host: JsonValue } | { kind: 'unset' } | { kind: 'unknown' };

/**
 * Which server a key talks to: its own `host` setting, else the global one. `unknown` until the global
 * settings have arrived, so a key does not ask the operator to set up what is merely loading.
 */
export function chooseHost(keyHost: JsonValue | undefined, global: GlobalSettings | undefined): HostChoice {
  const own = hostSetting(keyHost);
  if (own !== undefined) return { kind: 'host', host: own };
  if (global === undefined) return { kind: 'unknown' };
  const shared = hostSetting(global.host);
  return shared === undefined ? { kind: 'unset' } : { kind: 'host', host: shared };
}
