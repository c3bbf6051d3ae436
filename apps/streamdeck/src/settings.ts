/**
 * The settings of each action (the plugin README lists them), read defensively: the Stream Deck app hands over
 * whatever JSON the inspector (or a hand-edited profile) stored, so nothing here trusts a type; only reading a
 * malformed hosts map throws, with core's sentence, for the key to show as SET UP.
 */
import {
  DEFAULT_HARDWARE_EVERY_MS,
  InvalidInputError,
  MIN_HARDWARE_EVERY_MS,
  parseHostList,
  parseHostMap,
  parseInterfaceAddress,
  parseSmcMap,
  type HostMap,
  type SmcMap,
} from '@stagelink/core';

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
  clock: 'com.stagelink.mediaserver.clock',
  renderstream: 'com.stagelink.mediaserver.renderstream',
} as const;

/**
 * `{ "host": "http://10.0.0.5", "hosts"?: "DIRECTOR01=10.0.0.5", "backupHosts"?: "10.0.0.6", "dnssd"?: true }`: the
 * session every key talks to unless its own settings name another, and the addresses of machines whose names this
 * computer cannot resolve, for following a director there (core's `hosts`). The settings page stores `hosts` as the
 * text typed, one `NAME=address` a line; a hand-edited profile may hold it as an object `{ "DIRECTOR01": "10.0.0.5" }`.
 */
export interface GlobalSettings extends JsonObject {
  host?: string;
  hosts?: string | Record<string, string>;
  /**
   * More machines of the session (the understudy, an editor), asked in order after `host` when looking for the
   * director (core's `backupHosts`): the text typed, one address a line or comma-separated; a hand-edited profile
   * may hold a list of addresses. Only for keys on `host`: a key with an address of its own is on another session.
   */
  backupHosts?: string | string[];
  /** Find the session's machines by their DNS-SD announcements when none known leads to the director (core's `dnssd`); keys on `host` only, as backupHosts. */
  dnssd?: boolean;
  /**
   * This computer's IPv4 address on the show network, where DNS-SD looks (core's `dnssdInterface`): for a desk also on
   * venue Wi-Fi. Blank for every interface; read only with `dnssd`, which it belongs to.
   */
  dnssdInterface?: string;
  /**
   * Each machine's management controller (SMC), for the hardware fault a health key shows: the text typed, one
   * `HOSTNAME=address` a line (core's parseSmcMap; reading the hardware needs no account, so no password is kept);
   * a hand-edited profile may hold an object `{ "ACTOR01": "10.0.1.6" }`.
   */
  smcs?: string | Record<string, string>;
  /** Seconds between two reads of each SMC (default 15, at least 1): the documents discourage polling harder. */
  hardwareEvery?: number | string;
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
  /**
   * What an engage key sends: `engage`, `disengage`, or `toggle` (the opposite of what the transport is at the
   * press; also what an absent setting means, as keys saved before the choice existed did). A hand-edited profile
   * may hold `true` or `false`, read as engage and disengage.
   */
  engaged?: string | boolean;
  /** Fires only once the key has been held down a moment: for cues a stray touch must not fire (stop, blackout). */
  hold?: boolean;
  /**
   * The operator set an icon of their own on the key: the app then shows it instead of every face the plugin
   * draws, so the key's state (PLAYING, NO LINK, ...) goes into its title, which the app still shows.
   */
  ownIcon?: boolean;
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

/** What a show clock counts: the big digits of its key or strip. */
export const CLOCK_SHOWS = ['sectionRemaining', 'trackRemaining', 'playhead', 'nextCueIn'] as const;
export type ClockShow = (typeof CLOCK_SHOWS)[number];

export interface ClockSettings extends JsonObject {
  transport?: string;
  /** One of CLOCK_SHOWS; `sectionRemaining` when absent. */
  show?: string;
  /** Seconds: the clock turns orange under this (default 10). */
  warnAt?: number | string;
  /** Seconds: the clock flashes under this while the transport plays (default 5). */
  flashAt?: number | string;
  host?: string;
}

/** What a RenderStream layer key does to its layer's workload; `restart` when absent. */
export const LAYER_OPERATIONS = ['restart', 'start', 'stop'] as const;
export type LayerOperation = (typeof LAYER_OPERATIONS)[number];

export interface RenderStreamKeySettings extends JsonObject {
  /** The layer's name as the director lists it (`renderstream/layers`), typed or picked. */
  layer?: string;
  /** One of LAYER_OPERATIONS. */
  operation?: string;
  host?: string;
}

/** The operation of a layer key's settings (any case); undefined for a value that is none of them (the key says so). */
export function layerOperationSetting(value: JsonValue | undefined): LayerOperation | undefined {
  const text = textSetting(value)?.toLowerCase();
  if (text === undefined) return 'restart';
  return (LAYER_OPERATIONS as readonly string[]).includes(text) ? (text as LayerOperation) : undefined;
}

/** What an engage key sends; see TransportKeySettings.engaged. */
export type EngageChoice = 'engage' | 'disengage' | 'toggle';

/** The engage choice of a key's settings; undefined for a value that is none of them (the key says so). */
export function engageSetting(value: JsonValue | undefined): EngageChoice | undefined {
  if (value === true) return 'engage';
  if (value === false) return 'disengage';
  const text = textSetting(value)?.toLowerCase();
  if (text === undefined) return 'toggle';
  return text === 'engage' || text === 'disengage' || text === 'toggle' ? text : undefined;
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

/**
 * `hosts`, when set, is the global hosts map as stored (read it with hostMapSetting); `backupHosts` and `dnssd` the
 * global ones as stored, for a key on the global host (read them with directorSearchSetting).
 */
export type HostChoice =
  | { kind: 'host'; host: JsonValue; hosts?: JsonValue; backupHosts?: JsonValue; dnssd?: JsonValue; dnssdInterface?: JsonValue; smcs?: JsonValue; hardwareEvery?: JsonValue }
  | { kind: 'unset' }
  | { kind: 'unknown' };

/**
 * Which server a key talks to: its own `host` setting, else the global one, with the global hosts map either way
 * (which names resolve is the desk's network, not the key's). The backup addresses and DNS-SD go with the global
 * host only: they are machines of its session, and a key with an address of its own talks to another session.
 * `unknown` until the global settings have arrived, so a key does not ask the operator to set up what is merely loading.
 */
export function chooseHost(keyHost: JsonValue | undefined, global: GlobalSettings | undefined): HostChoice {
  const present = (name: 'hosts' | 'backupHosts' | 'dnssd' | 'dnssdInterface' | 'smcs' | 'hardwareEvery') => {
    const value = global?.[name];
    return value === undefined || value === null ? {} : { [name]: value };
  };
  const own = hostSetting(keyHost);
  // The management controllers are machines' addresses on the desk's network, as the hosts map: any key may use them.
  if (own !== undefined) return { kind: 'host', host: own, ...present('hosts'), ...present('smcs'), ...present('hardwareEvery') };
  if (global === undefined) return { kind: 'unknown' };
  const shared = hostSetting(global.host);
  return shared === undefined
    ? { kind: 'unset' }
    : { kind: 'host', host: shared, ...present('hosts'), ...present('backupHosts'), ...present('dnssd'), ...present('dnssdInterface'), ...present('smcs'), ...present('hardwareEvery') };
}

/** The director search as the settings store it, before directorSearchSetting reads it. */
export interface StoredSearch {
  hosts?: JsonValue;
  backupHosts?: JsonValue;
  dnssd?: JsonValue;
  dnssdInterface?: JsonValue;
}

/** How a key's client finds the director besides asking its host: core's `hosts`, `backupHosts`, `dnssd` and `dnssdInterface`. */
export interface DirectorSearch {
  hosts?: HostMap;
  backupHosts?: string[];
  dnssd?: boolean;
  dnssdInterface?: string;
}

/** Which setting of a DirectorSearch could not be read: the field the operator must fix. */
export class DirectorSearchError extends InvalidInputError {
  constructor(
    readonly setting: 'hosts' | 'backupHosts' | 'dnssdInterface',
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * The director search of a host choice, each part read by core's own parser; empty parts left out (the DNS-SD
 * interface too while DNS-SD is off). Throws DirectorSearchError naming the setting that could not be read, with
 * core's sentence.
 */
export function directorSearchSetting(choice: StoredSearch): DirectorSearch {
  const read = <T>(setting: DirectorSearchError['setting'], reader: (value: JsonValue | undefined) => T): T => {
    try {
      return reader(choice[setting]);
    } catch (error) {
      throw new DirectorSearchError(setting, error instanceof Error ? error.message : String(error));
    }
  };
  const hosts = read('hosts', hostMapSetting);
  const backupHosts = read('backupHosts', backupHostsSetting);
  // The interface belongs to DNS-SD: with it off, whatever the field holds is not used, so it cannot be wrong.
  const dnssd = choice.dnssd === true;
  const dnssdInterface = dnssd ? read('dnssdInterface', parseInterfaceAddress) : undefined;
  return {
    ...(hosts ? { hosts } : {}),
    ...(backupHosts ? { backupHosts } : {}),
    ...(dnssd ? { dnssd: true } : {}),
    ...(dnssdInterface ? { dnssdInterface } : {}),
  };
}

/**
 * The backup addresses for core, as origins in the order given: text as the settings page stores it, or a list of
 * addresses from a hand-edited profile; undefined when absent or empty. Core's parseHostList reads them, so what an
 * address may be is its rule. Throws InvalidInputError naming the entry that is not an address.
 */
export function backupHostsSetting(value: JsonValue | undefined): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  let text: string;
  if (typeof value === 'string') text = value;
  else if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) text = value.join('\n');
  else throw new InvalidInputError(`Backup addresses must be text, one address a line (for example 10.0.0.6), not ${JSON.stringify(value)}.`);
  const origins = parseHostList(text);
  return origins.length === 0 ? undefined : origins;
}

/**
 * The hosts map of the global settings for core: text as the settings page stores it, or an object of
 * addresses by name; undefined when absent or empty. Core's parseHostMap reads both, so the rule of what an
 * entry may be lives there. Throws InvalidInputError naming the entry that is not `NAME=address`.
 */
export function hostMapSetting(value: JsonValue | undefined): HostMap | undefined {
  if (value === undefined || value === null) return undefined;
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'object' && !Array.isArray(value)) text = Object.entries(value).map(([name, address]) => `${name}=${addressText(name, address)}`).join('\n');
  else throw new InvalidInputError(`Machine addresses must be text, one NAME=address a line (for example DIRECTOR01=10.0.0.5), not ${JSON.stringify(value)}.`);
  const hosts = parseHostMap(text);
  return Object.keys(hosts).length === 0 ? undefined : hosts;
}

function addressText(name: string, address: JsonValue): string {
  if (typeof address === 'string' && address.trim() !== '') return address.trim();
  throw new InvalidInputError(`The address of ${name} in the machine addresses must be text such as 10.0.0.5, not ${JSON.stringify(address)}.`);
}

/** Which machines' hardware the keys may watch, and how often each SMC is read. */
export interface HardwareSetting {
  smcs: SmcMap;
  everyMs: number;
}

/**
 * The management controllers of the global settings for core, read by core's parseSmcMap (so what a line may be
 * is its rule), and the period of their reads. Throws InvalidInputError naming the line or the value to fix.
 */
export function hardwareSetting(choice: { smcs?: JsonValue; hardwareEvery?: JsonValue }): HardwareSetting {
  const value = choice.smcs;
  let text = '';
  if (typeof value === 'string') text = value;
  else if (typeof value === 'object' && value !== null && !Array.isArray(value)) text = Object.entries(value).map(([name, address]) => `${name}=${smcAddressText(name, address)}`).join('\n');
  else if (value !== undefined && value !== null) throw new InvalidInputError(`Management controllers must be text, one HOSTNAME=address a line (for example ACTOR01=10.0.1.6), not ${JSON.stringify(value)}.`);
  const smcs = parseSmcMap(text);
  const seconds = numberSetting(choice.hardwareEvery);
  if (choice.hardwareEvery !== undefined && choice.hardwareEvery !== null && textSetting(choice.hardwareEvery) !== undefined && seconds === undefined) {
    throw new InvalidInputError(`Hardware read every must be a number of seconds, such as 15 (got ${JSON.stringify(choice.hardwareEvery)}).`);
  }
  const everyMs = seconds === undefined ? DEFAULT_HARDWARE_EVERY_MS : Math.round(seconds * 1000);
  if (everyMs < MIN_HARDWARE_EVERY_MS) throw new InvalidInputError(`Hardware read every must be at least ${MIN_HARDWARE_EVERY_MS / 1000} s (got ${seconds} s): polling a management controller harder is discouraged.`);
  return { smcs, everyMs };
}

function smcAddressText(name: string, address: JsonValue): string {
  if (typeof address === 'string' && address.trim() !== '') return address.trim();
  throw new InvalidInputError(`The management controller of ${name} must be an address such as 10.0.1.6, not ${JSON.stringify(address)}.`);
}
