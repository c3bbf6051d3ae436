import type { AnnouncedMachine } from './announcements.js';
import { browseMachines } from './dnssd.js';

export interface DiscoverMachinesOptions {
  /** How long to listen (default 3000 ms): the list holds every machine heard in that time. */
  timeoutMs?: number;
  /** Multicast interface for DNS-SD, e.g. `127.0.0.1`; all interfaces when absent. */
  dnssdInterface?: string;
  /** Stops listening early: the list holds the machines heard until then. */
  signal?: AbortSignal;
  /** Told why nothing could be heard, e.g. `DNS-SD: bind EADDRINUSE` when another program holds port 5353. */
  onProblem?: (message: string) => void;
}

export type DiscoveredMachine = AnnouncedMachine;

/**
 * Lists the machines that announce themselves over DNS-SD (`_d3host._tcp`, every shipping machine), with the
 * role, version and project they announce and their API's url where they announce it: for a picker. Sorted by
 * hostname; empty when none answers. Never rejects for network trouble (see `onProblem`).
 */
export function discoverMachines(options: DiscoverMachinesOptions = {}): Promise<DiscoveredMachine[]> {
  return browseMachines({ timeoutMs: options.timeoutMs, interface: options.dnssdInterface, signal: options.signal }, options.onProblem);
}
