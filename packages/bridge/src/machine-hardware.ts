import { reasonOf, type HardwareSnapshot, type HardwareWatch, type MediaServer, type SmcMap } from '@stagelink/core';
import type { BridgeLog } from './log.js';
import type { StateEvent } from './session-events.js';
import { STALE_REASONS } from './stale-reasons.js';

/**
 * The hardware watches of the machines of the session that have a management controller in `--smc-map`: one core
 * watch per machine while it is in the session (core shares one poll per SMC), each snapshot passed on as the
 * machine's `hardware` value. A snapshot that is not of an answered read (`stale`, `offline`) carries the stale mark.
 */
export class MachineHardware {
  readonly #watches = new Map<string, HardwareWatch>();
  readonly #watched: Set<string>;
  #closed = false;

  constructor(
    private readonly mediaServer: MediaServer,
    smcs: SmcMap | undefined,
    private readonly everyMs: number,
    private readonly onSnapshot: (event: StateEvent) => void,
    private readonly log: BridgeLog,
  ) {
    // Hostnames are the same in any case, as core reads the map.
    this.#watched = new Set(Object.keys(smcs ?? {}).map((hostname) => hostname.toLowerCase()));
  }

  /** A machine came into the session: watched when it has a management controller. */
  watch(hostname: string): void {
    if (this.#closed || this.#watches.has(hostname) || !this.#watched.has(hostname.toLowerCase())) return;
    try {
      const watch = this.mediaServer.hardwareOf(hostname).watch((snapshot) => this.onSnapshot(hardwareEvent(hostname, snapshot)), { everyMs: this.everyMs });
      this.#watches.set(hostname, watch);
    } catch (error) {
      this.log.warn('hardware not watched', { hostname, reason: reasonOf(error) });
    }
  }

  /** A machine left the session: its management controller is no longer read. */
  left(hostname: string): void {
    this.#watches.get(hostname)?.close();
    this.#watches.delete(hostname);
  }

  close(): void {
    this.#closed = true;
    for (const watch of this.#watches.values()) watch.close();
    this.#watches.clear();
  }
}

/** A snapshot as the machine's `hardware` value: its readings are only live while its SMC answered the last read. */
export function hardwareEvent(hostname: string, snapshot: HardwareSnapshot): StateEvent {
  const marks = snapshot.status === 'online' ? undefined : { stale: true as const, reason: STALE_REASONS.readFailed };
  return { what: 'machine', which: hostname, part: 'hardware', value: snapshot, ...(marks ? { marks } : {}) };
}
