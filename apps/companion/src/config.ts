/**
 * The connection's settings as Companion shows and stores them, and what core makes of them. The SMC passwords are
 * secret fields: Companion keeps them apart from the config, and the module never logs them or puts them in a status.
 */
import type { JsonObject, SomeCompanionConfigField } from '@companion-module/base';
import { DEFAULT_HARDWARE_EVERY_MS, InvalidInputError, originOf, parseHostList, parseHostMap, parseInterfaceAddress, parseSmcMap, reasonOf, type HostMap, type MediaServerOptions, type SmcMap } from '@stagelink/core';

export interface ModuleConfig {
  [key: string]: string | number | boolean;
  /** Any machine of the session: a hostname, host:port or http:// URL. */
  host: string;
  /** Send everything to the session's director and follow it when the role moves (on by default). */
  followDirector: boolean;
  /** More machines of the session (an understudy, an editor), one per line or comma-separated, asked in order. */
  backupHosts: string;
  /** Find the session's machines by their DNS-SD announcements when none known leads to the director (core's `dnssd`). */
  dnssd: boolean;
  /** The desk's IPv4 address on the show network, where DNS-SD looks; blank for every network. Read only with `dnssd`. */
  dnssdInterface: string;
  /** `HOSTNAME=address` lines for machine names the desk cannot resolve. */
  hosts: string;
  /**
   * Each machine's management controller (SMC), one `HOSTNAME=address` (or `HOSTNAME=user@address`) per line: the
   * hardware actions name a machine and go to its line, never to the director.
   */
  smcs: string;
  /** The SMC user of lines that name none. */
  smcUser: string;
  /** The show's frame rate: FPS alerts are measured against it. */
  frameRate: number;
  /** How often, in seconds, each machine's SMC is read for its hardware health (15 by default, at least 1). */
  hardwareEvery: number;
}

/**
 * `smcPassword` (the password of machines without their own) and `smcPasswords` (`HOSTNAME=password` entries
 * separated by `;`), kept by Companion in its secrets store.
 */
export type ModuleSecrets = JsonObject;

export const DEFAULT_FRAME_RATE = 60;
/** The hardware poll's default period, in seconds: core's. */
export const DEFAULT_HARDWARE_EVERY_S = DEFAULT_HARDWARE_EVERY_MS / 1000;

export function configFields(): SomeCompanionConfigField[] {
  return [
    {
      type: 'textinput',
      id: 'host',
      label: 'Media server',
      description: 'Any machine of the session: a hostname, host:port or http:// address (port 80 by default).',
      width: 8,
      default: '',
    },
    { type: 'checkbox', id: 'followDirector', label: 'Follow the director', width: 4, default: true, description: 'Cues and live values go to the director, wherever the role moves.' },
    {
      type: 'textinput',
      id: 'backupHosts',
      label: 'Backup addresses',
      description:
        'Optional: more machines of the session (an understudy, an editor), one per line, asked in order when the first cannot say who directs, so the director is found while it is off. Needs "Follow the director".',
      width: 12,
      multiline: true,
      default: '',
    },
    {
      type: 'checkbox',
      id: 'dnssd',
      label: 'Find by DNS-SD',
      width: 4,
      default: false,
      description: 'Optional: when no machine known leads to the director, ask the machines the session announces on the network (joins the mDNS group, UDP 5353). Needs "Follow the director".',
    },
    {
      type: 'textinput',
      id: 'dnssdInterface',
      label: 'DNS-SD interface',
      width: 8,
      default: '',
      description: 'Optional, with "Find by DNS-SD": this computer\u2019s IPv4 address on the show network (e.g. 10.0.0.20), for a desk also on venue Wi-Fi. Blank for every network.',
    },
    {
      type: 'textinput',
      id: 'hosts',
      label: 'Machine addresses',
      description: 'For machine names this computer cannot resolve: one HOSTNAME=address per line, e.g. DIRECTOR01=10.0.0.5.',
      width: 12,
      multiline: true,
      default: '',
    },
    { type: 'number', id: 'frameRate', label: 'Show frame rate', width: 4, min: 1, max: 240, default: DEFAULT_FRAME_RATE, description: 'FPS alerts compare each machine against it.' },
    {
      type: 'textinput',
      id: 'smcs',
      label: 'Management controllers (SMC)',
      description:
        'For OLED, LED strip and power: each machine\u2019s management controller, one HOSTNAME=address per line as the session names the machine, e.g. ACTOR01=10.0.1.6 (ACTOR01=user@10.0.1.6 for a user of its own). Hardware actions name their machine and go only to its line here.',
      width: 12,
      multiline: true,
      default: '',
    },
    {
      type: 'number',
      id: 'hardwareEvery',
      label: 'Hardware every (s)',
      width: 4,
      min: 1,
      max: 3600,
      default: DEFAULT_HARDWARE_EVERY_S,
      description: 'How often each SMC above is read for fans, temperatures, power flags and output cards. The documents discourage polling hard: 15 s is light on every SMC.',
    },
    { type: 'textinput', id: 'smcUser', label: 'SMC user', width: 4, default: '', description: 'For every line above that names no user of its own.' },
    { type: 'secret-text', id: 'smcPassword', label: 'SMC password', width: 4, default: '', description: 'For every machine without a password of its own.' },
    {
      type: 'secret-text',
      id: 'smcPasswords',
      label: 'SMC passwords per machine',
      width: 4,
      default: '',
      description: 'Optional: HOSTNAME=password entries separated by ;, e.g. ACTOR01=secret; ACTOR02=other.',
    },
  ];
}

/** What the settings give: core's options (each machine's SMC in `server.smcs`) and the frame rate, or why they cannot be used. */
export type ConfigReading = { ok: true; server: MediaServerOptions & { smcs: SmcMap }; frameRate: number; hardwareEveryMs: number } | { ok: false; problem: string };

export function readConfig(config: Partial<ModuleConfig>, secrets: ModuleSecrets | undefined): ConfigReading {
  const host = typeof config.host === 'string' ? config.host.trim() : '';
  if (host === '') return { ok: false, problem: 'Enter the address of a machine of the session.' };
  try {
    originOf(host);
    const hosts = hostsOf(config.hosts);
    const followDirector = config.followDirector !== false;
    const backupHosts = backupHostsOf(config.backupHosts, followDirector);
    const dnssd = dnssdOf(config, followDirector);
    const smcs = smcsOf(config, secrets);
    const server = { host, followDirector, hosts, smcs, ...(backupHosts.length > 0 ? { backupHosts } : {}), ...dnssd };
    return { ok: true, server, frameRate: frameRateOf(config.frameRate), hardwareEveryMs: hardwareEveryMsOf(config.hardwareEvery) };
  } catch (error) {
    return { ok: false, problem: reasonOf(error) };
  }
}

/** The machine addresses as core takes them; a line that is not one is named in the status under the field's label. */
function hostsOf(value: unknown): HostMap {
  try {
    return parseHostMap(typeof value === 'string' ? value : '');
  } catch (error) {
    throw new InvalidInputError(`Machine addresses: ${reasonOf(error)}`);
  }
}

/**
 * Each machine's SMC and account. The account is kept whenever it is given: it goes with every line that names no
 * user or password of its own. A line that is not of the shape is named in the status (never a password).
 */
function smcsOf(config: Partial<ModuleConfig>, secrets: ModuleSecrets | undefined): SmcMap {
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
  try {
    return parseSmcMap(text(config.smcs) ?? '', { username: text(config.smcUser), password: text(secrets?.['smcPassword']), passwords: text(secrets?.['smcPasswords']) });
  } catch (error) {
    throw new InvalidInputError(`Management controllers (SMC): ${reasonOf(error)}`);
  }
}

/**
 * The backup addresses as core takes them, each checked here so a bad one is named in the status (core would only
 * say that one of them is not an address).
 */
function backupHostsOf(value: unknown, followDirector: boolean): string[] {
  const backupHosts = parseHostList(typeof value === 'string' ? value : '');
  if (backupHosts.length > 0 && !followDirector) {
    throw new InvalidInputError('Backup addresses are asked when looking for the director: turn on "Follow the director", or clear the backup addresses.');
  }
  return backupHosts;
}

/**
 * DNS-SD as core takes it, on its interface: nothing while the box is off (the interface field then holds whatever it
 * holds, unused). An interface that is not an IPv4 address is named in the status.
 */
function dnssdOf(config: Partial<ModuleConfig>, followDirector: boolean): { dnssd?: true; dnssdInterface?: string } {
  if (config.dnssd !== true) return {};
  if (!followDirector) throw new InvalidInputError('"Find by DNS-SD" is used when looking for the director: turn on "Follow the director", or untick it.');
  try {
    const dnssdInterface = parseInterfaceAddress(config.dnssdInterface);
    return { dnssd: true, ...(dnssdInterface === undefined ? {} : { dnssdInterface }) };
  } catch (error) {
    throw new InvalidInputError(`DNS-SD interface: ${reasonOf(error)}`);
  }
}

/** Seconds as the field gives them (blank in settings saved before the field: the default), at least 1 s. */
function hardwareEveryMsOf(value: unknown): number {
  const seconds = typeof value === 'number' ? value : value === undefined || value === '' ? DEFAULT_HARDWARE_EVERY_S : Number(value);
  if (!Number.isFinite(seconds) || seconds < 1) throw new InvalidInputError(`Hardware every (s) must be a number of seconds of at least 1 (got ${String(value)}).`);
  return Math.round(seconds * 1000);
}

function frameRateOf(value: unknown): number {
  const rate = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(rate) && rate > 0 ? rate : DEFAULT_FRAME_RATE;
}
