import { reasonOf, Throttle, type ClockStatus, type MediaServer, type ShowClockSnapshot, type TransportWatch } from '@stagelink/core';
import type { BridgeLog } from './log.js';
import { STALE_REASONS, type StaleReason } from './stale-reasons.js';

/** `transports/<name>/clock`: core's snapshot, with the stale mark and its reason while the clock is not live. */
export type ClockPayload = ShowClockSnapshot & { stale?: true; reason?: StaleReason };

/** Why a clock that is not live is: its link is down, or its playhead (or its values) stopped while the link is up. */
const CLOCK_REASONS: Record<Exclude<ClockStatus, 'online'>, StaleReason> = {
  offline: STALE_REASONS.noLink,
  stale: STALE_REASONS.valuesStopped,
};

/** A live snapshot as published; a stale or offline one holds where the playhead was last seen, and says why. */
export function clockPayload(snapshot: ShowClockSnapshot): ClockPayload {
  if (snapshot.status === 'online') return snapshot;
  return { ...snapshot, stale: true, reason: CLOCK_REASONS[snapshot.status] };
}

interface WatchedClock {
  watch?: TransportWatch;
  throttle: Throttle<void>;
  /** The status last published; undefined before the first snapshot. */
  status?: ClockStatus;
}

/**
 * The show clocks of the transports the bridge publishes: one core watch per transport (all of them one live
 * subscription group each at the director, whatever the number of consumers), published at most once a period
 * while live, the newest snapshot read when it goes out. A clock that turns stale or offline is said at once with
 * its reason, whatever the rate.
 */
export class TransportClocks {
  readonly #clocks = new Map<string, WatchedClock>();
  #closed = false;

  constructor(
    private readonly mediaServer: MediaServer,
    private readonly periodMs: number,
    private readonly publish: (name: string, payload: ClockPayload) => void,
    private readonly log: BridgeLog,
  ) {}

  /** Starts the clock of a transport, once. */
  watch(name: string): void {
    if (this.#closed || this.#clocks.has(name)) return;
    const clock: WatchedClock = {
      throttle: new Throttle<void>(() => {
        const current = clock.watch?.current;
        if (current) this.publish(name, clockPayload(current));
      }, this.periodMs),
    };
    this.#clocks.set(name, clock);
    clock.watch = this.mediaServer.transport.watch(
      { name },
      (snapshot) => {
        // A change of status (not live, or live again) goes out at once; everything else at the pace.
        if (snapshot.status !== clock.status) {
          if (clock.status !== undefined) this.log.info('show clock', { transport: name, status: snapshot.status });
          clock.status = snapshot.status;
          clock.throttle.cancel();
          this.publish(name, clockPayload(snapshot));
          return;
        }
        clock.throttle.push();
      },
      { onError: (error) => this.log.warn('show clock problem', { transport: name, reason: reasonOf(error) }) },
    );
  }

  /** Stops the clock of a transport that is gone; a later `watch` starts it again. */
  unwatch(name: string): void {
    const clock = this.#clocks.get(name);
    if (!clock) return;
    this.#clocks.delete(name);
    stop(clock);
  }

  close(): void {
    this.#closed = true;
    for (const clock of this.#clocks.values()) stop(clock);
    this.#clocks.clear();
  }
}

function stop({ watch, throttle }: WatchedClock): void {
  throttle.close();
  watch?.close();
}
