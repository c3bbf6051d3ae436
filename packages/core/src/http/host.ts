import { InvalidInputError } from '../errors.js';

/**
 * Turns what a user types for a machine (`10.0.0.5`, `media-1:8080`, `http://10.0.0.5`) into an origin such as
 * `http://10.0.0.5`. The port defaults to 80 as on the media servers.
 */
export function originOf(host: string): string {
  const trimmed = host.trim();
  if (trimmed === '') throw new InvalidInputError('No media-server host given: set a hostname, host:port or http:// URL.');
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new InvalidInputError(`"${host}" is not a valid media-server address: use a hostname, host:port or http:// URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidInputError(`"${host}" uses ${url.protocol.slice(0, -1)}: the media-server API speaks http.`);
  }
  if (url.hostname === '') throw new InvalidInputError(`"${host}" names no machine: use a hostname, host:port or http:// URL.`);
  // URL.origin leaves the default port out, so the same machine always reads the same.
  return url.origin;
}

/** The hostname part of an origin, as error messages and status lines show it. */
export function hostnameOf(origin: string): string {
  return new URL(origin).hostname;
}
