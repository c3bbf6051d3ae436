import { isIPv4 } from 'node:net';
import { InvalidInputError } from '../errors.js';

/**
 * Turns what a user types for a machine (`10.0.0.5`, `media-1:8080`, `http://10.0.0.5`) into an origin such as
 * `http://10.0.0.5`. The port defaults to 80 as on the media servers. Anything but text is refused: a number
 * would otherwise read as an IPv4 address (5 is 0.0.0.5) and send requests to a machine nobody named.
 */
export function originOf(host: unknown): string {
  const trimmed = typeof host === 'string' ? host.trim() : host;
  if (trimmed === '' || trimmed === undefined || trimmed === null) {
    throw new InvalidInputError('No media-server host given: set a hostname, host:port or http:// URL.');
  }
  if (typeof trimmed !== 'string') {
    throw new InvalidInputError(`The media-server host must be text, not the ${typeof trimmed} ${shown(trimmed)}: use a hostname, host:port or http:// URL.`);
  }
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new InvalidInputError(`"${trimmed}" is not a valid media-server address: use a hostname, host:port or http:// URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidInputError(`"${trimmed}" uses ${url.protocol.slice(0, -1)}: the media-server API speaks http.`);
  }
  if (url.hostname === '') throw new InvalidInputError(`"${trimmed}" names no machine: use a hostname, host:port or http:// URL.`);
  // URL.origin leaves the default port out, so the same machine always reads the same.
  return url.origin;
}

/**
 * A list of machine addresses written as text, one per line or separated by commas (what a settings field or a
 * command-line flag holds), each read as `originOf` reads it: the origins, in the order written. Blank entries and
 * `#` lines are left out, as `parseHostMap` leaves them. What `backupHosts` takes from a settings field.
 * InvalidInputError names the first entry that is not an address, and which one it is.
 */
export function parseHostList(text: string): string[] {
  if (typeof text !== 'string') throw new InvalidInputError(`A list of machine addresses must be text, one address a line, not the ${typeof text} ${shown(text)}.`);
  const entries = text.split(/[\n,]/).map((entry) => entry.trim()).filter((entry) => entry !== '' && !entry.startsWith('#'));
  return entries.map((entry, index) => {
    try {
      return originOf(entry);
    } catch (error) {
      throw new InvalidInputError(`Address ${index + 1} of the list: ${(error as Error).message}`);
    }
  });
}

/**
 * The interface a DNS-SD look multicasts on (`dnssdInterface`), as a settings field or a flag holds it: this
 * computer's IPv4 address on the show network, e.g. `10.0.0.20`. Blank means every interface, the default: undefined.
 * A desk with venue Wi-Fi beside the show network needs it, or its queries may leave on the wrong one. The mDNS
 * socket takes an IPv4 address, not a name such as `eth0`; whether this computer has that address is left to the
 * look (an interface may come up after the setting is read). InvalidInputError says what to type instead.
 */
export function parseInterfaceAddress(text: unknown): string | undefined {
  if (text === undefined || text === null) return undefined;
  if (typeof text !== 'string') throw new InvalidInputError(`The DNS-SD interface must be text, an IPv4 address of this computer such as 10.0.0.20, not the ${typeof text} ${shown(text)}.`);
  const address = text.trim();
  if (address === '') return undefined;
  if (!isIPv4(address)) {
    throw new InvalidInputError(`"${address}" is not an IPv4 address: give this computer's address on the show network, such as 10.0.0.20, or leave the DNS-SD interface blank for all interfaces.`);
  }
  return address;
}

function shown(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? '(not showable)').slice(0, 40);
  } catch {
    return '(not showable)';
  }
}

/** The hostname part of an origin, as error messages and status lines show it. */
export function hostnameOf(origin: string): string {
  return new URL(origin).hostname;
}
