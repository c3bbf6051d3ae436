import { lookup } from 'node:dns/promises';

/** An address to send OSC to, and the family of the socket that sends to it. */
export interface OscHostAddress {
  address: string;
  family: 4 | 6;
}

/** `dns.lookup` as the OSC output calls it: one address, of a family or of any. */
export type HostLookup = (host: string, options: { family?: 4 | 6 }) => Promise<{ address: string; family: number }>;

const systemLookup: HostLookup = (host, options) => lookup(host, options);

/**
 * The address of a receiver named by host name, in the family the bridge's OSC socket uses when the name has one.
 * A console's `.local` name is answered by mDNS with every address it has, an IPv6 link-local one often first,
 * while lighting and show-control consoles mostly listen on IPv4 only: asked in any family, the bridge would send
 * every value to an address nobody listens on. A name with no address of that family is looked up in any.
 */
export async function oscHostAddress(host: string, family: 4 | 6, lookUp: HostLookup = systemLookup): Promise<OscHostAddress> {
  try {
    const { address } = await lookUp(host, { family });
    return { address, family };
  } catch {
    // No address of that family (or the lookup failed): the answer in any family, or its error, is what counts.
    const { address, family: found } = await lookUp(host, {});
    return { address, family: found === 6 ? 6 : 4 };
  }
}
