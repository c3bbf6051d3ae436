import { ConnectionError, reasonOf, StagelinkError } from '../errors.js';
import type { TlsOptions } from '../http/tls.js';
import { browseDirector } from './dnssd.js';
import { queryDirector, type HostMap } from './query.js';

export interface DiscoverOptions {
  /** A machine of the session to ask first (default `localhost`). */
  host?: string;
  /**
   * Listen for DNS-SD announcements when the query finds nothing: the documents' names and the ones shipping
   * builds announce (`_d3director._tcp` with the API as `d3api` of `_http._tcp`, on the port it announces).
   */
  dnssd?: boolean;
  /** Multicast interface for DNS-SD, e.g. `127.0.0.1`. */
  dnssdInterface?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Addresses for machine names this computer cannot resolve (the director's url is built from its hostname). */
  hosts?: HostMap;
  /** How to trust `host` when it is `https://` (a venue's own CA, say), as the client that will use it trusts it. */
  tls?: TlsOptions;
}

export interface DiscoveredDirector {
  hostname: string;
  url: string;
  solo: boolean;
  via: 'query' | 'dnssd';
  session?: string;
}

/** Finds the machine requests must go to: by query first, by DNS-SD where asked. */
export async function discoverDirector(options: DiscoverOptions = {}): Promise<DiscoveredDirector> {
  const host = options.host ?? 'localhost';
  let queryError: unknown;
  try {
    const found = await queryDirector(host, options);
    return { hostname: found.hostname, url: found.url, solo: found.solo, via: 'query' };
  } catch (error) {
    queryError = error;
  }
  if (options.dnssd) {
    const problems: string[] = [];
    const found = await browseDirector(
      { timeoutMs: options.timeoutMs, interface: options.dnssdInterface, signal: options.signal },
      (problem) => problems.push(problem),
    );
    if (found) return { ...found, solo: false, via: 'dnssd' };
    throw new ConnectionError(
      `No director found: ${host} did not answer (${reasonOf(queryError)}) and no DNS-SD director announced itself${problems.length ? ` (${problems.join('; ')})` : ''}. Check that a machine of the session is on and reachable.`,
    );
  }
  throw queryError instanceof StagelinkError
    ? queryError
    : new ConnectionError(`No director found: ${host} did not answer (${reasonOf(queryError)}).`, undefined, { cause: queryError });
}
