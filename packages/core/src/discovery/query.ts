import { InvalidInputError, StagelinkError } from '../errors.js';
import { hostnameOf, originOf } from '../http/host.js';
import { HttpClient } from '../http/http-client.js';
import type { TlsOptions } from '../http/tls.js';
import { EndpointCaller } from '../media-server/endpoint-caller.js';
import { endpoints } from '../media-server/catalogue.js';
import type { SessionInfo } from '../media-server/types.js';

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
  if (session.isRunningSolo || !session.director) {
    return { hostname: hostnameOf(origin), url: origin, solo: true, session };
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
  if (typeof hostname !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9.-]*$/.test(hostname)) return undefined;
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
 * command-line flag holds). InvalidInputError names the first entry that is not of that shape.
 */
export function parseHostMap(text: string): HostMap {
  const hosts: Record<string, string> = {};
  for (const entry of text.split(/[\n,]/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'))) {
    const match = /^([A-Za-z0-9][A-Za-z0-9.-]*)\s*=\s*(\S+)$/.exec(entry);
    if (!match?.[1] || !match[2]) throw new InvalidInputError(`"${entry}" is not HOSTNAME=address (for example DIRECTOR01=10.0.0.5).`);
    hosts[match[1]] = match[2];
  }
  return hosts;
}

function mappedAddress(hosts: HostMap | undefined, hostname: string): URL | undefined {
  const wanted = hostname.toLowerCase();
  const entry = Object.entries(hosts ?? {}).find(([name]) => name.toLowerCase() === wanted);
  if (!entry) return undefined;
  try {
    return new URL(/^https?:\/\//.test(entry[1]) ? entry[1] : `http://${entry[1]}`);
  } catch {
    throw new InvalidInputError(`The address given for ${hostname} in hosts (${JSON.stringify(entry[1])}) is not an address or address:port.`);
  }
}
