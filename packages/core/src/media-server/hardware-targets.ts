/**
 * Which machine a hardware call acts on. The hardware family (power, OLED, LED strip, whoami, ...) is served per
 * machine by its management controller: a call acts on the machine whose controller was called. Following the
 * director is right for the session family and wrong here (a power-off must reach the machine the operator
 * named, never the one that took the director role over), so hardware writes go only to a machine named for
 * them, and reads without one keep their old default.
 */
import { MACHINE_HOSTNAME, machineOrigin, type HostMap } from '../discovery/query.js';
import { ClosedError, HardwareTargetError, InvalidInputError, reasonOf } from '../errors.js';
import { originOf } from '../http/host.js';
import type { Logger } from '../http/logger.js';
import type { TlsOptions } from '../http/tls.js';
import { HardwareWatches, type HardwareWatch, type HardwareWatchOptions } from '../hardware-health/hardware-watches.js';
import type { HardwareSnapshot } from '../hardware-health/hardware-snapshot.js';
import { endpoints, type EndpointSpec } from './catalogue.js';
import type { CallOptions, EndpointInput, GuardedCallOptions } from './endpoint-caller.js';
import { HardwareApi, type HardwareCaller } from './hardware.js';
import { SmcClient } from './smc-client.js';

/** A machine's management controller (SMC): its address and the account its writes need (HTTP Basic). */
export interface SmcTarget {
  /** The SMC's address: a hostname, `host:port` or `http://` URL (port 80 by default). */
  host: string;
  /** Never logged, never in an error. */
  username?: string;
  password?: string;
}

/**
 * Each machine's management controller by the hostname the session gives the machine (any case), e.g.
 * `{ ACTOR01: { host: '10.0.1.6', username: 'admin', password } }`.
 */
export type SmcMap = Readonly<Record<string, SmcTarget>>;

/**
 * The machine a hardware call acts on: a hostname as the session lists it (`ACTOR01`), or its management
 * controller's address and account (`{ host, username, password }`). A hostname is looked up in the client's
 * `smcs`; without an entry there, the call goes to the machine's own address (from `hosts`, else its name, on
 * the port of the client's `host`), as the API documents show, without an account.
 */
export type HardwareMachine = string | SmcTarget;

export interface HardwareCallOptions extends GuardedCallOptions {
  /**
   * The machine a hardware endpoint goes to (see HardwareMachine). Hardware writes need one unless the client was
   * given `smc`; session and service endpoints take none.
   */
  machine?: HardwareMachine;
}

/** Watches one machine's hardware: see `MachineHardware.watch`. */
export type WatchHardware = (onChange: (snapshot: HardwareSnapshot) => void, options?: HardwareWatchOptions) => HardwareWatch;

/** The hardware family of one machine: every call goes to its `host`, never to the session's director. */
export class MachineHardware extends HardwareApi {
  /** Where this machine's hardware calls go (an origin such as `http://10.0.1.6`). */
  readonly host: string;
  readonly #caller: HardwareCaller;
  readonly #watch: WatchHardware;

  constructor(host: string, caller: HardwareCaller, logger: Logger, watch: WatchHardware) {
    super(caller, logger);
    this.host = host;
    this.#caller = caller;
    this.#watch = watch;
  }

  /**
   * Watches this machine's fans, temperatures, power flags and output cards: `chassis/stats`, `chassis/power/status`
   * and `vfcs` read once per period (default 15 s, never under 1 s) for every watcher of this machine in the client,
   * each snapshot judged against the watcher's thresholds. `onChange` is told each snapshot that differs from the
   * last one it was told. ClosedError once the client is closed.
   */
  watch(onChange: (snapshot: HardwareSnapshot) => void, options?: HardwareWatchOptions): HardwareWatch {
    return this.#watch(onChange, options);
  }

  /** Sends any hardware endpoint of the catalogue to this machine. */
  async call<T>(spec: EndpointSpec, input?: EndpointInput, options?: GuardedCallOptions): Promise<T> {
    if (spec.family !== 'hardware') {
      throw new InvalidInputError(`${spec.group}.${spec.operation} is not a hardware endpoint: send it through the client itself, which knows where the session is.`);
    }
    return this.#caller.call<T>(spec, input, options);
  }
}

/** How many machines' connection pools are kept open at once; the least recently used is closed beyond it. */
const MAX_OPEN_MACHINES = 64;

export interface HardwareTargetsOptions {
  /** The client's `host` as an origin: hostnames without an address of their own are reached on its port. */
  origin: string;
  hosts?: HostMap;
  smcs?: SmcMap;
  timeoutMs?: number;
  retries?: number;
  tls?: TlsOptions;
  logger: Logger;
}

interface ResolvedTarget {
  origin: string;
  username?: string;
  password?: string;
}

/**
 * The hardware clients of a MediaServer, one per machine (address and account), each with its own keep-alive
 * pool, made on first use and closed together.
 */
export class HardwareTargets {
  readonly #options: HardwareTargetsOptions;
  readonly #smcs: ReadonlyMap<string, ResolvedTarget>;
  readonly #clients = new Map<string, SmcClient>();
  readonly #watches: HardwareWatches;
  #closed = false;

  constructor(options: HardwareTargetsOptions) {
    this.#options = options;
    this.#smcs = checkedSmcs(options.smcs);
    this.#watches = new HardwareWatches(options.logger);
  }

  /** The hardware family bound to `machine`. Throws InvalidInputError for a machine that names nothing usable. */
  of(machine: HardwareMachine): MachineHardware {
    const target = this.#resolve(machine);
    const key = JSON.stringify([target.origin, target.username ?? null, target.password ?? null]);
    const caller: HardwareCaller = { call: async (spec, input, options) => this.#client(key, target).call(spec, input, options) };
    const name = typeof machine === 'string' ? machine.trim() : target.origin;
    const sources = {
      stats: (options: CallOptions) => caller.call(endpoints.chassisStats, {}, options),
      powerStatus: (options: CallOptions) => caller.call(endpoints.powerStatus, {}, options),
      outputs: (options: CallOptions) => caller.call(endpoints.vfcsList, {}, options),
    };
    return new MachineHardware(target.origin, caller, this.#options.logger, (onChange, options) => this.#watches.watch(key, name, sources, onChange, options));
  }

  /** Closes every machine's pool and hardware poll; later calls are refused with ClosedError. Safe to call more than once. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#watches.close();
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.all(clients.map((client) => client.close()));
  }

  #resolve(machine: HardwareMachine): ResolvedTarget {
    if (typeof machine === 'object' && machine !== null) return checkedTarget(machine, 'The SMC');
    if (typeof machine !== 'string' || machine.trim() === '') {
      throw new HardwareTargetError(
        `No machine named for the hardware call (got ${typeof machine === 'string' ? 'an empty name' : typeof machine}): give the hostname the session lists it by (e.g. ACTOR01), or { host } with its management controller's address.`,
      );
    }
    const hostname = machine.trim();
    const mapped = this.#smcs.get(hostname.toLowerCase());
    if (mapped) return mapped;
    const origin = machineOrigin(this.#options.origin, hostname, this.#options.hosts);
    if (origin === undefined) {
      throw new InvalidInputError(
        `"${hostname}" is not a machine's hostname (letters, digits, dots and dashes, e.g. ACTOR01): to name a management controller by its address, give { host: "${hostname}" }.`,
      );
    }
    return { origin };
  }

  #client(key: string, target: ResolvedTarget): SmcClient {
    if (this.#closed) throw new ClosedError(`The hardware call to ${target.origin} was not sent: this client was closed. Create a new one.`);
    let client = this.#clients.get(key);
    if (client) {
      // Most recently used last: the first entry is the one to close when there are too many.
      this.#clients.delete(key);
    } else {
      const { timeoutMs, retries, tls, logger } = this.#options;
      client = new SmcClient({ host: target.origin, username: target.username, password: target.password, timeoutMs, retries, tls, logger });
    }
    this.#clients.set(key, client);
    for (const [oldest, stale] of this.#clients) {
      if (this.#clients.size <= MAX_OPEN_MACHINES) break;
      this.#clients.delete(oldest);
      // Lets its requests in flight finish; a later call to that machine opens a new pool.
      void stale.close().catch(() => undefined);
    }
    return client;
  }
}

/**
 * A caller for `ms.hardware` when no machine is named: reads go where they always went, writes are refused before
 * sending, since that address follows the director.
 */
export function refusingWrites(caller: HardwareCaller): HardwareCaller {
  return {
    call: async (spec, input, options) => {
      if (spec.method !== 'GET') throw unnamedMachine(spec);
      return caller.call(spec, input, options);
    },
  };
}

export function unnamedMachine(spec: EndpointSpec): HardwareTargetError {
  return new HardwareTargetError(
    `${spec.method} ${spec.path} (${spec.summary}) was not sent: it acts on the machine whose management controller is called, and no machine was named. Name it: ms.hardwareOf("ACTOR01") (its hostname in the session), ms.hardwareOf({ host, username, password }) (its SMC), the machine option of ms.call, or the client's smc option. A hardware write never goes to the session's address, which is another machine once the director role moves.`,
  );
}

/** The SMC account as Basic authentication takes it: text or nothing. Never shown in a message. */
function checkedTarget(target: SmcTarget, what: string): ResolvedTarget {
  let origin: string;
  try {
    origin = originOf(target.host);
  } catch (error) {
    throw new InvalidInputError(`${what} address is not usable: ${reasonOf(error)}`);
  }
  for (const field of ['username', 'password'] as const) {
    const value = target[field];
    if (value !== undefined && typeof value !== 'string') throw new InvalidInputError(`${what} ${field} must be text (got ${typeof value}).`);
  }
  return {
    origin,
    ...(target.username === undefined || target.username === '' ? {} : { username: target.username }),
    ...(target.password === undefined || target.password === '' ? {} : { password: target.password }),
  };
}

function checkedSmcs(smcs: SmcMap | undefined): Map<string, ResolvedTarget> {
  if (smcs === undefined) return new Map();
  if (typeof smcs !== 'object' || smcs === null || Array.isArray(smcs)) {
    throw new InvalidInputError('smcs must map machine hostnames to their management controllers, e.g. { ACTOR01: { host: "10.0.1.6", username: "admin", password } }.');
  }
  const checked = new Map<string, ResolvedTarget>();
  for (const [hostname, target] of Object.entries(smcs)) {
    if (!MACHINE_HOSTNAME.test(hostname)) throw new InvalidInputError(`"${hostname}" in smcs is not a machine's hostname (letters, digits, dots and dashes, e.g. ACTOR01).`);
    if (typeof target !== 'object' || target === null) throw new InvalidInputError(`smcs.${hostname} must be { host, username?, password? }.`);
    if (checked.has(hostname.toLowerCase())) throw new InvalidInputError(`smcs names ${hostname} twice (hostnames are the same in any case).`);
    checked.set(hostname.toLowerCase(), checkedTarget(target, `The SMC of ${hostname}:`));
  }
  return checked;
}

/** The account of machines whose entry names none, and each machine's own password, as settings keep them. */
export interface SmcAccounts {
  /** The SMC user of machines whose line names none. */
  username?: string;
  /** The password of machines without one of their own in `passwords`. */
  password?: string;
  /**
   * Each machine's own password: `HOSTNAME=password` entries separated by `;` or new lines (what a secret field
   * holds). A `;` is part of a password unless a `HOSTNAME=` follows it.
   */
  passwords?: string;
}

/**
 * Machines' management controllers written as text (a settings field): one `HOSTNAME=address` per line (or
 * comma-separated), `HOSTNAME=user@address` to give that machine's SMC user; the address a hostname,
 * `host:port` or `http://` URL. Passwords never go in this text: they come from `accounts`. InvalidInputError
 * names the first entry that is not of that shape, and never shows a password.
 */
export function parseSmcMap(text: string, accounts: SmcAccounts = {}): SmcMap {
  const smcs: Record<string, SmcTarget> = {};
  const passwords = parsePasswords(accounts.passwords ?? '');
  const lines = (typeof text === 'string' ? text : '').split(/[\n,]/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  for (const line of lines) {
    const match = /^([A-Za-z0-9][A-Za-z0-9.-]*)\s*=\s*(\S+)$/.exec(line);
    if (!match?.[1] || !match[2]) throw new InvalidInputError(`"${line}" is not HOSTNAME=address of a management controller (for example ACTOR01=10.0.1.6, or ACTOR01=admin@10.0.1.6).`);
    const hostname = match[1];
    if (Object.keys(smcs).some((known) => known.toLowerCase() === hostname.toLowerCase())) throw new InvalidInputError(`${hostname} has two management controller lines: keep one.`);
    const { host, username } = addressAndUser(match[2], hostname);
    const password = passwords.get(hostname.toLowerCase())?.password ?? accounts.password;
    const user = username ?? accounts.username;
    smcs[hostname] = { host, ...(user ? { username: user } : {}), ...(password ? { password } : {}) };
  }
  for (const { hostname } of passwords.values()) {
    if (!Object.keys(smcs).some((known) => known.toLowerCase() === hostname.toLowerCase())) {
      throw new InvalidInputError(`There is a password for ${hostname}, but no management controller line for it: add ${hostname}=<SMC address>, or remove its password.`);
    }
  }
  return smcs;
}

/** `user@address` or a URL with a user; a password written into the address is refused. */
function addressAndUser(written: string, hostname: string): { host: string; username?: string } {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(written) ? written : `http://${written}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new InvalidInputError(`The management controller address of ${hostname} is not an address: use a hostname, host:port or http:// URL, with user@ before it for its account.`);
  }
  if (url.password !== '') throw new InvalidInputError(`The management controller line of ${hostname} holds a password: remove it from the line and give it in the password field, which is kept secret.`);
  const username = url.username === '' ? undefined : decodeURIComponent(url.username);
  url.username = '';
  try {
    return { host: originOf(url.href), ...(username === undefined ? {} : { username }) };
  } catch (error) {
    throw new InvalidInputError(`The management controller address of ${hostname}: ${reasonOf(error)}`);
  }
}

function parsePasswords(text: string): Map<string, { hostname: string; password: string }> {
  const found = new Map<string, { hostname: string; password: string }>();
  const entries = (typeof text === 'string' ? text : '').split(/[\n\r]+|;\s*(?=[A-Za-z0-9][A-Za-z0-9.-]*\s*=)/).map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const [index, entry] of entries.entries()) {
    const match = /^([A-Za-z0-9][A-Za-z0-9.-]*)\s*=\s*(.+)$/.exec(entry);
    // The entry is not shown: it may be a password.
    if (!match?.[1] || !match[2]) throw new InvalidInputError(`Password entry ${index + 1} is not HOSTNAME=password (for example ACTOR01=secret; ACTOR02=other).`);
    if (found.has(match[1].toLowerCase())) throw new InvalidInputError(`${match[1]} has two passwords: keep one.`);
    found.set(match[1].toLowerCase(), { hostname: match[1], password: match[2] });
  }
  return found;
}
