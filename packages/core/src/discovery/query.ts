import { InvalidInputError, StagelinkError } from '../errors.js';
import { hostnameOf, originOf } from '../http/host.js';
import { HttpClient } from '../http/http-client.js';
import type { TlsOptions } from '../http/tls.js';
import { EndpointCaller } from '../media-server/endpoint-caller.js';
import { endpoints } from '../media-server/catalogue.js';
import type { SessionInfo } from '../media-server/types.js';

/** A machine's hostname as a session lists it (`DIRECTOR01`, `media-2.venue.lan`): letters, digits, dots and dashes. */
export const MACHINE_HOSTNAME = /^[A-Za-z0-9][A-Za-z0-9.-]*$/;

export interface QueriedDirector {
  hostname: string;
  url: string;
  solo: boolean;
  session: SessionInfo;
}

/**
 * Asks one machine who directs its session (`status/session`): solo means that machine itself; otherwise
 * the director's hostname, on the same port as the machine asked.
 */
export async function queryDirector(
  host: string,
  options: { timeoutMs?: number; signal?: AbortSignal; hosts?: HostMap; tls?: TlsOptions } = {},
): Promise<QueriedDirector> {
  const origin = originOf(host);
  const http = new HttpClient({ baseUrl: origin, timeoutMs: options.timeoutMs ?? 2000, retries: 0, tls: options.tls });
  try {
    const session = await new EndpointCaller(http).call<SessionInfo>(endpoints.session, {}, { signal: options.signal });
    return directorFrom(origin, session, options.hosts);
  } finally {
    await http.close();
  }
}

export function directorFrom(origin: string, session: SessionInfo, hosts?: HostMap): QueriedDirector {
  if (session.isRunningSolo) return { hostname: hostnameOf(origin), url: origin, solo: true, session };
  // Not solo and no director: a session between directors (a takeover under way). Taking the machine for a solo
  // director would send cues to an actor and tell every output a director that is not one.
  if (!session.director) {
    throw new StagelinkError(`${origin} is in a session that names no director right now (a takeover may be under way): ask again in a moment.`);
  }
  const hostname: unknown = session.director.hostname;
  const url = machineOrigin(origin, hostname, hosts);
  if (url === undefined) {
    throw new StagelinkError(`${origin} named a director without a usable hostname (${JSON.stringify(hostname) ?? 'none'}): it was not followed.`);
  }
  return { hostname: hostname as string, url, solo: false, session };
}

/**
 * Addresses for machine hostnames the control desk cannot resolve (`DIRECTOR01` is a Windows machine name):
 * hostname, in any case, to an address or `address:port`.
 */
export type HostMap = Readonly<Record<string, string>>;

/**
 * The origin of a machine the session lists, on the port of the machine that listed it unless the host map
 * gives one; undefined when the answer gives no usable hostname. A broken answer must not send the client
 * after `undefined` or `0.0.0.5`.
 */
export function machineOrigin(origin: string, hostname: unknown, hosts?: HostMap): string | undefined {
  if (typeof hostname !== 'string' || !MACHINE_HOSTNAME.test(hostname)) return undefined;
  const url = new URL(origin);
  const mapped = mappedAddress(hosts, hostname);
  if (mapped !== undefined) {
    url.hostname = mapped.hostname;
    if (mapped.port !== '') url.port = mapped.port;
    return url.origin;
  }
  url.hostname = hostname;
  return url.hostname === hostname.toLowerCase() ? url.origin : undefined;
}

/**
 * A host map written as text, one `HOSTNAME=address` per line or separated by commas (what a settings field or a
 * command-line flag holds). InvalidInputError names the first entry that is not of that shape, or whose address is
 * not one.
 */
export function parseHostMap(text: string): HostMap {
  const hosts: Record<string, string> = {};
  for (const entry of text.split(/[\n,]/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'))) {
    const match = /^([A-Za-z0-9][A-Za-z0-9.-]*)\s*=\s*(\S+)$/.exec(entry);
    if (!match?.[1] || !match[2]) throw new InvalidInputError(`"${entry}" is not HOSTNAME=address (for example DIRECTOR01=10.0.0.5).`);
    hosts[match[1]] = match[2];
  }
  checkedHostMap(hosts);
  return hosts;
}

/**
 * The host map a client was given, every entry checked: a hostname as the session lists machines, and an address
 * or `address:port`. A typo (`ACTOR01: '10.0.0.256'`) is an InvalidInputError naming the entry and its value when
 * the map is given, not a failure on the first call that needs that machine.
 */
export function checkedHostMap(hosts: unknown): HostMap | undefined {
  if (hosts === undefined) return undefined;
  if (typeof hosts !== 'object' || hosts === null || Array.isArray(hosts)) {
    throw new InvalidInputError('hosts must map machine hostnames to addresses, e.g. { DIRECTOR01: "10.0.0.5", ACTOR01: "10.0.0.6:8080" }.');
  }
  for (const [hostname, address] of Object.entries(hosts)) {
    if (!MACHINE_HOSTNAME.test(hostname)) throw new InvalidInputError(`"${hostname}" in hosts is not a machine's hostname (letters, digits, dots and dashes, e.g. ACTOR01).`);
    addressOf(hostname, address);
  }
  return hosts as HostMap;
}

function mappedAddress(hosts: HostMap | undefined, hostname: string): URL | undefined {
  const wanted = hostname.toLowerCase();
  const entry = Object.entries(hosts ?? {}).find(([name]) => name.toLowerCase() === wanted);
  return entry && addressOf(entry[0], entry[1]);
}

/** An address or `address:port` of the host map as a URL; InvalidInputError naming the entry when it is neither. */
function addressOf(hostname: string, address: unknown): URL {
  const notAnAddress = () =>
    new InvalidInputError(`The address given for ${hostname} in hosts (${JSON.stringify(address) ?? String(address)}) is not an address or address:port, e.g. ${hostname}=10.0.0.6 or ${hostname}=10.0.0.6:8080.`);
  if (typeof address !== 'string' || address.trim() === '') throw notAnAddress();
  let url: URL;
  try {
    url = new URL(/^https?:\/\//.test(address) ? address : `http://${address}`);
  } catch {
    throw notAnAddress();
  }
  if (url.hostname === '' || url.pathname !== '/' || url.search !== '' || url.username !== '') throw notAnAddress();
  return url;
}
