import { parseHostMap, parseSmcMap, reasonOf } from '@stagelink/core';
import type { LogFormat } from './log.js';
import { OptionError, type BridgeOptions } from './options.js';

export const USAGE = `Usage: stagelink-bridge --server <host> --mqtt <url> [options]

Holds the one connection to a media-server session, publishes its state to an MQTT broker (retained, QoS 1,
JSON) and takes cues from it.

  --server <host>             any machine of the session: hostname, host:port or http:// URL (required)
  --mqtt <url>                the broker: mqtt://host:1883, or mqtts://host:8883 for TLS (required)
  --prefix <topic>            topic prefix (default stagelink/<hostname of --server>)
  --follow-director           follow the director when the role moves to another machine
  --hosts NAME=ADDR,...       addresses of machines whose hostnames do not resolve from here
  --backup-hosts ADDR,...     more machines of the session, asked while --server is off (with --follow-director)
  --dnssd                     find machines by their DNS-SD announcements when none known leads to the director
  --dnssd-interface <addr>    the interface DNS-SD multicasts on (default all)
  --smc-map NAME=ADDR,...     machines' management controllers, whose hardware (fans, temperatures, power,
                              output cards) is published; NAME=user@ADDR names an SMC user
  --hardware-every <s>        how often each management controller is read (default 15, at least 1)
  --fps-hz <n>                most FPS messages per machine, and summaries, per second (default 4)
  --fps-deadband <fps>        smaller FPS changes are not published (default 0.05)
  --fps-target <fps>          the show's frame rate, for the FPS alert class (default 60)
  --poll-interval <ms>        how often health, session and transports are read (default 2000)
  --max-command-age <ms>      refuse commands older than this (default 2000); a command id is
                              remembered twice this long, per sender
  --accept-untimed-commands   run commands with neither sentAt nor a message expiry (default: refused)
  --username <name>           broker account
  --password-file <path>      file holding the broker password (never give it on the command line)
  --tls-ca <path>             CA certificate (PEM) the broker's certificate is checked against
  --tls-cert <path>           client certificate (PEM), with --tls-key
  --tls-key <path>            client key (PEM)
  --keepalive <s>             MQTT keep-alive (default 10): the Last Will fires 1.5 keep-alives after silence
  --client-id <id>            MQTT client id (default stagelink-bridge-<prefix>)
  --osc-send HOST:PORT,...    send the state as OSC to these receivers (each address at most --fps-hz a second)
  --osc-listen [ADDR:]PORT    take OSC commands on this UDP port (default address 0.0.0.0)
  --osc-allow CIDR,...        senders whose OSC commands are taken (none by default: listening alone takes nothing)
  --ha-discovery [prefix]     Home Assistant MQTT discovery under this prefix (default homeassistant)
  --ha-discovery-mode <mode>  device (one config per device, default) or entity (one per entity, e.g. openHAB)
  --record <dir>              record the show log into this folder, one file per show day (docs/show-log.md)
  --metrics [ADDR:]PORT       serve Prometheus metrics on http://ADDR:PORT/metrics (default address 127.0.0.1)
  --log-format text|json      log lines on stderr (default text)
  --help                      this text`;

export type CliCommand =
  | { kind: 'help' }
  | {
      kind: 'run';
      options: Omit<BridgeOptions, 'password' | 'tls' | 'log'>;
      passwordFile?: string;
      tlsFiles: { ca?: string; cert?: string; key?: string };
      logFormat: LogFormat;
    };

const VALUE_FLAGS = new Set([
  'server',
  'mqtt',
  'prefix',
  'hosts',
  'backup-hosts',
  'dnssd-interface',
  'smc-map',
  'hardware-every',
  'fps-hz',
  'fps-deadband',
  'fps-target',
  'poll-interval',
  'max-command-age',
  'username',
  'password-file',
  'tls-ca',
  'tls-cert',
  'tls-key',
  'keepalive',
  'client-id',
  'log-format',
  'osc-send',
  'osc-listen',
  'osc-allow',
  'ha-discovery-mode',
  'record',
  'metrics',
]);
/** Flags whose value may be left out: the next argument is theirs unless it is another flag. */
const OPTIONAL_VALUE_FLAGS = new Set(['ha-discovery']);
const SWITCHES = new Set(['follow-director', 'accept-untimed-commands', 'dnssd', 'help']);

/** Reads the flags; OptionError names the first one that cannot be used. Reads no file. */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (!match?.[1]) throw new OptionError(`Unexpected argument ${JSON.stringify(arg)}.`);
    const name = match[1];
    if (name === 'password') throw new OptionError('--password is not taken: a password on the command line is seen by every user of the machine. Use --password-file.');
    if (SWITCHES.has(name)) {
      if (match[2] !== undefined) throw new OptionError(`--${name} takes no value.`);
      switches.add(name);
      continue;
    }
    if (OPTIONAL_VALUE_FLAGS.has(name)) {
      const next = argv[index + 1];
      const takesNext = match[2] === undefined && next !== undefined && !next.startsWith('--');
      if (takesNext) index++;
      values.set(name, match[2] ?? (takesNext ? next : ''));
      continue;
    }
    if (!VALUE_FLAGS.has(name)) throw new OptionError(`Unknown flag --${name}.`);
    const value = match[2] ?? argv[++index];
    if (value === undefined || (match[2] === undefined && value.startsWith('--'))) throw new OptionError(`--${name} needs a value.`);
    values.set(name, value);
  }
  if (switches.has('help')) return { kind: 'help' };
  const server = values.get('server');
  const mqtt = values.get('mqtt');
  if (!server) throw new OptionError('--server is required: the address of any machine of the session.');
  if (!mqtt) throw new OptionError('--mqtt is required: the broker URL, e.g. mqtt://127.0.0.1:1883.');
  const logFormat = values.get('log-format') ?? 'text';
  if (logFormat !== 'text' && logFormat !== 'json') throw new OptionError(`--log-format is text or json (got ${JSON.stringify(logFormat)}).`);
  const number = (flag: string): number | undefined => {
    const text = values.get(flag);
    if (text === undefined) return undefined;
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value)) throw new OptionError(`--${flag} must be a number (got ${JSON.stringify(text)}).`);
    return value;
  };
  const hostsText = values.get('hosts');
  let hosts;
  try {
    hosts = hostsText === undefined ? undefined : parseHostMap(hostsText);
  } catch (error) {
    throw new OptionError(`--hosts: ${reasonOf(error)}`);
  }
  const smcText = values.get('smc-map');
  let smcs;
  try {
    smcs = smcText === undefined ? undefined : parseSmcMap(smcText);
  } catch (error) {
    throw new OptionError(`--smc-map: ${reasonOf(error)}`);
  }
  const optional = <T>(key: string, value: T | undefined) => (value === undefined ? {} : { [key]: value });
  return {
    kind: 'run',
    options: {
      server,
      mqtt,
      ...optional('prefix', values.get('prefix')),
      followDirector: switches.has('follow-director'),
      ...optional('hosts', hosts),
      ...optional('backupHosts', list(values.get('backup-hosts'))),
      ...(switches.has('dnssd') ? { dnssd: true } : {}),
      ...optional('dnssdInterface', values.get('dnssd-interface')),
      ...optional('smcs', smcs),
      ...optional('hardwareEverySeconds', number('hardware-every')),
      ...optional('fpsHz', number('fps-hz')),
      ...optional('fpsDeadband', number('fps-deadband')),
      ...optional('fpsTarget', number('fps-target')),
      ...optional('pollIntervalMs', number('poll-interval')),
      ...optional('maxCommandAgeMs', number('max-command-age')),
      acceptUntimedCommands: switches.has('accept-untimed-commands'),
      ...optional('username', values.get('username')),
      ...optional('keepaliveSeconds', number('keepalive')),
      ...optional('clientId', values.get('client-id')),
      ...optional('oscSend', list(values.get('osc-send'))),
      ...optional('oscListen', values.get('osc-listen')),
      ...optional('oscAllow', list(values.get('osc-allow'))),
      ...optional('haDiscovery', values.has('ha-discovery') ? values.get('ha-discovery') || true : undefined),
      ...optional('haDiscoveryMode', values.get('ha-discovery-mode')),
      ...optional('record', values.get('record')),
      ...optional('metrics', values.get('metrics')),
    },
    ...optional('passwordFile', values.get('password-file')),
    tlsFiles: {
      ...optional('ca', values.get('tls-ca')),
      ...optional('cert', values.get('tls-cert')),
      ...optional('key', values.get('tls-key')),
    },
    logFormat,
  };
}

/** A comma-separated flag's items, trimmed, empty ones (a trailing comma) left out. */
function list(text: string | undefined): string[] | undefined {
  return text?.split(',').map((item) => item.trim()).filter((item) => item !== '');
}
