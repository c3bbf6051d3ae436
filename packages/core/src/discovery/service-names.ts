/**
 * The DNS-SD names of a session, in both vocabularies: the API documents' (`_svcdirector._tcp`,
 * `_svcapi._http._tcp`) and the ones shipping builds announce (`_d3director._tcp`, `_d3host._tcp`, and the API
 * as instance `d3api` of `_http._tcp`). Types are written as bonjour-service takes them: without the leading
 * underscore and the protocol. Everything is in `.local` only.
 */

/** The documents' director: `_svcdirector._tcp`, the session in its TXT record (`session`). */
export const DIRECTOR_SERVICE_TYPE = 'svcdirector';

/** The documents' API server: `_svcapi._http._tcp`. */
export const API_SERVICE_TYPE = 'svcapi._http';

/**
 * A shipping director while it controls a session: `_d3director._tcp`, instance the session name with its
 * special characters as `_` (`folder_show_d3session`), TXT `sessionName`. Its port is not the API's.
 */
export const SHIPPING_DIRECTOR_SERVICE_TYPE = 'd3director';

/** Every shipping machine: `_d3host._tcp`, instance its hostname, TXT as HostTxt. */
export const HOST_SERVICE_TYPE = 'd3host';

/** Where shipping machines announce their API: instance API_INSTANCE_NAME of `_http._tcp`, port in the SRV record. */
export const HTTP_SERVICE_TYPE = 'http';

/** The instance name of a shipping API; other interfaces (or machines) of the network take `d3api (2)`, ... */
export const API_INSTANCE_NAME = 'd3api';

/** The TXT record of a `_d3director._tcp` announcement. */
export interface DirectorTxt {
  /** The session as the project names it: `folder/show.d3session`. */
  sessionName: string;
}

/** The TXT record of a `_d3host._tcp` announcement. */
export interface HostTxt {
  gateway?: string;
  /** The project this machine last ran. */
  recentProject?: string;
  /** The role it last had in a session. */
  recentRole?: string;
  versionNumber?: string;
  branch?: string;
}

/**
 * The name the n-th announcement of one instance name carries (1-based): `d3api`, `d3api (2)`, ... This is how
 * mDNS renames a name already taken, by another interface of the same machine or by another machine.
 */
export function numberedInstance(name: string, n: number): string {
  return n <= 1 ? name : `${name} (${n})`;
}

/** The instance name without the number mDNS added: `d3api (2)` is `d3api`. */
export function unnumberedInstance(instance: string): string {
  return instance.replace(/ \(\d+\)$/, '');
}
