import { parseHostList, parseInterfaceAddress, type HostMap, type SmcMap } from '@stagelink/core';
import { silentLog, type BridgeLog } from './log.js';
import { isIP } from 'node:net';
import type { HaDiscoveryMode } from './ha-discovery.js';
import { metricsListenOf, type MetricsListen } from './metrics.js';
import type { OscTarget } from './osc-out.js';
import { checkPrefix, defaultPrefix } from './topics.js';

/** A block of senders whose OSC commands are taken: an address and how many of its leading bits must match. */
export interface OscSubnet {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** Where OSC commands are taken. */
export interface OscListen {
  address: string;
  port: number;
}

export interface BridgeOptions {
  /** Any machine of the session: a hostname, `host:port` or `http://` URL (as core takes it). */
  server: string;
  /** The broker: `mqtt://host:1883` or `mqtts://host:8883` (TLS). */
  mqtt: string;
  /** Topic prefix; default `stagelink/<hostname of server>`. */
  prefix?: string;
  /** Follow the director of the session when the role moves (default false). */
  followDirector?: boolean;
  /** Addresses of machines by hostname, for names the bridge's host cannot resolve (core's `hosts`). */
  hosts?: HostMap;
  /** More machines of the session, asked after `server` when looking for the director (core's `backupHosts`). */
  backupHosts?: readonly string[];
  /** Find machines by their DNS-SD announcements when none known leads to the director (core's `dnssd`). */
  dnssd?: boolean;
  /** The interface DNS-SD multicasts on, e.g. `127.0.0.1` (core's `dnssdInterface`). */
  dnssdInterface?: string;
  /**
   * The management controllers of the machines whose hardware is watched, by hostname (core's `smcs`; `parseSmcMap`
   * reads it from `HOSTNAME=address` text). Reads need no account; a machine not named here is not watched.
   */
  smcs?: SmcMap;
  /** How often each machine's management controller is read, in seconds (default 15, never under 1). */
  hardwareEverySeconds?: number;
  /** Most FPS messages per machine per second, and most summaries per second (default 4). */
  fpsHz?: number;
  /** An FPS change smaller than this is not published, unless its alert class changes (default 0.05). */
  fpsDeadband?: number;
  /** The show's frame rate, against which the alert class is worked out (default 60). */
  fpsTarget?: number;
  /** How often health, session and transports are read (default 2000 ms). */
  pollIntervalMs?: number;
  /** A command older than this is refused (default 2000 ms). */
  maxCommandAgeMs?: number;
  /**
   * Run commands that carry neither `sentAt` nor an MQTT 5 message expiry (default false: they are refused, since
   * nothing then tells a cue held through a broker outage from a fresh one).
   */
  acceptUntimedCommands?: boolean;
  /** Broker account. */
  username?: string;
  password?: string;
  /** PEM contents (not paths) for a TLS broker. */
  tls?: { ca?: string; cert?: string; key?: string };
  /** MQTT keep-alive in seconds (default 10): the broker publishes the Last Will 1.5 keep-alives after silence. */
  keepaliveSeconds?: number;
  /** MQTT client id (default `stagelink-bridge-<prefix>`). */
  clientId?: string;
  /** Broker reconnect back-off: full jitter from base, doubling, up to cap (default 250 ms to 10 s). */
  reconnect?: { baseMs?: number; capMs?: number };
  /** OSC receivers the state is sent to, `host:port` each (`[v6]:port` for an IPv6 address). */
  oscSend?: readonly string[];
  /** Where OSC commands are taken: `[addr:]port` (default address 0.0.0.0). Nothing is taken without `oscAllow`. */
  oscListen?: string;
  /** Senders whose OSC commands are taken: addresses or CIDR blocks (`10.0.0.0/24`, `127.0.0.1`); none by default. */
  oscAllow?: readonly string[];
  /** Home Assistant MQTT discovery under this prefix (`true`: `homeassistant`). */
  haDiscovery?: string | boolean;
  /** `device` (default): one config per device; `entity`: one per entity, for systems without device discovery. */
  haDiscoveryMode?: HaDiscoveryMode;
  /** Record the show log (`docs/show-log.md`) into this folder: one file per show day. */
  record?: string;
  /** Serve Prometheus metrics on `/metrics` here: `[addr:]port` (default address 127.0.0.1; port 0 for any free one). */
  metrics?: string;
  log?: BridgeLog;
}

export interface ResolvedBridgeOptions {
  server: string;
  mqtt: string;
  prefix: string;
  followDirector: boolean;
  hosts: HostMap | undefined;
  backupHosts: readonly string[];
  dnssd: boolean;
  dnssdInterface: string | undefined;
  smcs: SmcMap | undefined;
  hardwareEveryMs: number;
  fpsHz: number;
  fpsDeadband: number;
  fpsTarget: number;
  pollIntervalMs: number;
  maxCommandAgeMs: number;
  acceptUntimedCommands: boolean;
  username: string | undefined;
  password: string | undefined;
  tls: { ca?: string; cert?: string; key?: string } | undefined;
  keepaliveSeconds: number;
  clientId: string;
  reconnect: { baseMs: number; capMs: number };
  oscSend: OscTarget[];
  oscListen: OscListen | undefined;
  oscAllow: OscSubnet[];
  haDiscovery: string | undefined;
  haDiscoveryMode: HaDiscoveryMode;
  record: string | undefined;
  metrics: MetricsListen | undefined;
  log: BridgeLog;
}

/** An option that cannot be used; the CLI exits with code 2. */
export class OptionError extends Error {
  override name = 'OptionError';
  readonly code = 'STAGELINK_BRIDGE_ERR_OPTION';
}

export function resolveOptions(options: BridgeOptions): ResolvedBridgeOptions {
  if (typeof options.server !== 'string' || options.server.trim() === '') throw new OptionError('--server is required: the address of any machine of the session.');
  if (typeof options.mqtt !== 'string' || !/^(mqtts?|wss?|tcp|ssl):\/\/./i.test(options.mqtt)) {
    throw new OptionError(`--mqtt must be a broker URL such as mqtt://127.0.0.1:1883 or mqtts://broker:8883 (got ${JSON.stringify(redactForError(options.mqtt))}).`);
  }
  const prefix = options.prefix ?? defaultPrefix(options.server);
  const prefixProblem = checkPrefix(prefix);
  if (prefixProblem) throw new OptionError(`--prefix ${JSON.stringify(prefix)} cannot be used: ${prefixProblem}.`);
  if (options.password !== undefined && options.username === undefined) throw new OptionError('A password needs --username.');
  const backupHosts = backupHostsOf(options.backupHosts);
  const followDirector = options.followDirector ?? false;
  if (!followDirector && (backupHosts.length > 0 || options.dnssd)) {
    throw new OptionError(`${backupHosts.length > 0 ? '--backup-hosts' : '--dnssd'} is used when looking for the director: add --follow-director.`);
  }
  return {
    server: options.server.trim(),
    mqtt: options.mqtt,
    prefix,
    followDirector,
    hosts: options.hosts,
    backupHosts,
    dnssd: options.dnssd ?? false,
    dnssdInterface: dnssdInterfaceOf(options.dnssdInterface),
    smcs: options.smcs,
    // The documents discourage polling a management controller hard: core refuses under a second, and so does the flag.
    hardwareEveryMs: positive(options.hardwareEverySeconds ?? 15, '--hardware-every', 1, 3600) * 1000,
    fpsHz: positive(options.fpsHz ?? 4, '--fps-hz', 0.01, 60),
    fpsDeadband: positive(options.fpsDeadband ?? 0.05, '--fps-deadband', 0, 1000),
    fpsTarget: positive(options.fpsTarget ?? 60, '--fps-target', 1, 1000),
    pollIntervalMs: positive(options.pollIntervalMs ?? 2000, '--poll-interval', 100, 3_600_000),
    maxCommandAgeMs: positive(options.maxCommandAgeMs ?? 2000, '--max-command-age', 1, 3_600_000),
    acceptUntimedCommands: options.acceptUntimedCommands ?? false,
    username: options.username,
    password: options.password,
    tls: options.tls,
    keepaliveSeconds: positive(options.keepaliveSeconds ?? 10, '--keepalive', 1, 65535),
    clientId: options.clientId ?? `stagelink-bridge-${prefix.replace(/[^A-Za-z0-9_-]/g, '-')}`.slice(0, 64),
    reconnect: { baseMs: options.reconnect?.baseMs ?? 250, capMs: options.reconnect?.capMs ?? 10_000 },
    oscSend: oscTargetsOf(options.oscSend),
    oscListen: options.oscListen === undefined ? undefined : oscListenOf(options.oscListen),
    oscAllow: oscAllowOf(options.oscAllow),
    haDiscovery: haDiscoveryOf(options.haDiscovery),
    haDiscoveryMode: haModeOf(options.haDiscoveryMode),
    record: recordDirOf(options.record),
    metrics: options.metrics === undefined ? undefined : metricsOf(options.metrics),
    log: options.log ?? silentLog,
  };
}

function backupHostsOf(value: unknown): string[] {
  if (value === undefined) return [];
  const hosts: unknown[] = Array.isArray(value) ? value : [undefined];
  if (!hosts.every((host): host is string => typeof host === 'string' && host.trim() !== '')) {
    throw new OptionError('--backup-hosts must be addresses of machines of the session, e.g. 10.0.0.6,10.0.0.7:8080.');
  }
  // Read as every front end reads a list of addresses, so a bad one is named at start-up by its position.
  try {
    return parseHostList(hosts.join('\n'));
  } catch (error) {
    throw new OptionError(`--backup-hosts: ${(error as Error).message}`);
  }
}

/** Read as every front end reads it: a typo (`eth0`, `10.0.0.300`) is refused at start-up, not left to find nothing. */
function dnssdInterfaceOf(value: unknown): string | undefined {
  try {
    return parseInterfaceAddress(value);
  } catch (error) {
    throw new OptionError(`--dnssd-interface: ${(error as Error).message}`);
  }
}

function positive(value: number, flag: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new OptionError(`${flag} must be a number from ${min} to ${max} (got ${String(value)}).`);
  }
  return value;
}

function redactForError(url: unknown): unknown {
  return typeof url === 'string' ? url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@') : url;
}

/** `host:port` or `[v6]:port`; undefined when it is neither. */
function hostPort(text: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/.exec(text.trim());
  const port = Number(match?.[3]);
  const host = match?.[1] ?? match?.[2];
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return { host, port };
}

function oscTargetsOf(value: unknown): OscTarget[] {
  if (value === undefined) return [];
  const items: unknown[] = Array.isArray(value) ? value : [value];
  return items.map((item) => {
    const target = typeof item === 'string' ? hostPort(item) : undefined;
    if (!target) throw new OptionError(`--osc-send takes host:port receivers, e.g. 10.0.0.20:53000,[fd00::7]:9000 (got ${JSON.stringify(item)}).`);
    return target;
  });
}

function oscListenOf(value: unknown): OscListen {
  const text = typeof value === 'string' ? value.trim() : '';
  const listen = /^\d{1,5}$/.test(text) ? { host: '0.0.0.0', port: Number(text) } : hostPort(text);
  if (!listen || isIP(listen.host) === 0 || listen.port < 1 || listen.port > 65535) {
    throw new OptionError(`--osc-listen takes [address:]port, e.g. 9000 or 10.0.0.5:9000 (got ${JSON.stringify(value)}).`);
  }
  return { address: listen.host, port: listen.port };
}

function oscAllowOf(value: unknown): OscSubnet[] {
  if (value === undefined) return [];
  const items: unknown[] = Array.isArray(value) ? value : [value];
  return items.map((item) => {
    const text = typeof item === 'string' ? item.trim() : '';
    const [address = '', bits, ...rest] = text.split('/');
    const family = isIP(address);
    const max = family === 6 ? 128 : 32;
    const ok = family !== 0 && rest.length === 0 && (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max));
    if (!ok) throw new OptionError(`--osc-allow takes addresses or CIDR blocks, e.g. 10.0.0.0/24,127.0.0.1 (got ${JSON.stringify(item)}).`);
    return { address, prefix: bits === undefined ? max : Number(bits), family: family === 6 ? 'ipv6' : 'ipv4' };
  });
}

function haDiscoveryOf(value: unknown): string | undefined {
  if (value === undefined || value === false) return undefined;
  const prefix = value === true ? 'homeassistant' : value;
  const problem = typeof prefix === 'string' ? checkPrefix(prefix) : 'it is not text';
  if (problem) throw new OptionError(`--ha-discovery ${JSON.stringify(prefix)} cannot be used: ${problem}.`);
  return prefix as string;
}

function haModeOf(value: unknown): HaDiscoveryMode {
  if (value === undefined) return 'device';
  if (value !== 'device' && value !== 'entity') throw new OptionError(`--ha-discovery-mode is device or entity (got ${JSON.stringify(value)}).`);
  return value;
}

function recordDirOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new OptionError('--record takes the folder the show log is written to, e.g. /var/log/stagelink.');
  return value.trim();
}

function metricsOf(value: unknown): MetricsListen {
  const listen = typeof value === 'string' ? metricsListenOf(value) : undefined;
  if (!listen) throw new OptionError(`--metrics takes [address:]port, e.g. 9464 (loopback) or 10.0.0.5:9464 (got ${JSON.stringify(value)}).`);
  return listen;
}
