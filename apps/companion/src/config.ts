/**
 * The connection's settings as Companion shows and stores them, and what core makes of them. The SMC password is
 * a secret field: Companion keeps it apart from the config, and the module never logs it or puts it in a status.
 */
import type { JsonObject, SomeCompanionConfigField } from '@companion-module/base';
import { InvalidInputError, originOf, parseHostMap, reasonOf, type MediaServerOptions } from '@stagelink/core';

export interface ModuleConfig {
  [key: string]: string | number | boolean;
  /** Any machine of the session: a hostname, host:port or http:// URL. */
  host: string;
  /** Send everything to the session's director and follow it when the role moves (on by default). */
  followDirector: boolean;
  /** More machines of the session (an understudy, an editor), one per line or comma-separated, asked in order. */
  backupHosts: string;
  /** `HOSTNAME=address` lines for machine names the desk cannot resolve. */
  hosts: string;
  /** The machine's management controller (SMC); empty: hardware requests go to `host`. */
  smcHost: string;
  smcUser: string;
  /** The show's frame rate: FPS alerts are measured against it. */
  frameRate: number;
}

/** `smcPassword`, kept by Companion in its secrets store. */
export type ModuleSecrets = JsonObject;

export const DEFAULT_FRAME_RATE = 60;

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
      id: 'smcHost',
      label: 'Management controller (SMC)',
      description: 'Address of the machine\u2019s management controller, for OLED, LED strip and power. Empty: the media server\u2019s address.',
      width: 8,
      default: '',
    },
    { type: 'textinput', id: 'smcUser', label: 'SMC user', width: 4, default: '' },
    { type: 'secret-text', id: 'smcPassword', label: 'SMC password', width: 4, default: '' },
  ];
}

/** What the settings give: core's options and the frame rate, or why they cannot be used. */
export type ConfigReading = { ok: true; server: MediaServerOptions; frameRate: number } | { ok: false; problem: string };

export function readConfig(config: Partial<ModuleConfig>, secrets: ModuleSecrets | undefined): ConfigReading {
  const host = typeof config.host === 'string' ? config.host.trim() : '';
  if (host === '') return { ok: false, problem: 'Enter the address of a machine of the session.' };
  try {
    originOf(host);
    const hosts = parseHostMap(typeof config.hosts === 'string' ? config.hosts : '');
    const followDirector = config.followDirector !== false;
    const backupHosts = backupHostsOf(config.backupHosts, followDirector);
    const server: MediaServerOptions = { host, followDirector, hosts, ...(backupHosts.length > 0 ? { backupHosts } : {}) };
    const smcHost = typeof config.smcHost === 'string' ? config.smcHost.trim() : '';
    if (smcHost !== '') {
      originOf(smcHost);
      const username = typeof config.smcUser === 'string' && config.smcUser !== '' ? config.smcUser : undefined;
      const secret = secrets?.['smcPassword'];
      const password = typeof secret === 'string' && secret !== '' ? secret : undefined;
      server.smc = { host: smcHost, ...(username === undefined ? {} : { username }), ...(password === undefined ? {} : { password }) };
    }
    return { ok: true, server, frameRate: frameRateOf(config.frameRate) };
  } catch (error) {
    return { ok: false, problem: reasonOf(error) };
  }
}

/**
 * The backup addresses as core takes them, each checked here so a bad one is named in the status (core would only
 * say that one of them is not an address).
 */
function backupHostsOf(value: unknown, followDirector: boolean): string[] {
  const entries = (typeof value === 'string' ? value : '').split(/[\n,]/).map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (entries.length > 0 && !followDirector) {
    throw new InvalidInputError('Backup addresses are asked when looking for the director: turn on "Follow the director", or clear the backup addresses.');
  }
  for (const [index, entry] of entries.entries()) {
    try {
      originOf(entry);
    } catch (error) {
      throw new InvalidInputError(`Backup address ${index + 1}: ${reasonOf(error)}`);
    }
  }
  return entries;
}

function frameRateOf(value: unknown): number {
  const rate = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(rate) && rate > 0 ? rate : DEFAULT_FRAME_RATE;
}
