import type { Multitransport, Transport } from './types.js';

/**
 * The transports a multitransport moves. It lists its members as strings: uids on the servers seen so far, names
 * accepted too. A multitransport plays while any of them plays.
 */
export function multitransportMembers(transports: readonly Transport[], multi: Multitransport): Transport[] {
  return transports.filter((candidate) => multi.transports.includes(candidate.uid) || multi.transports.includes(candidate.name));
}
