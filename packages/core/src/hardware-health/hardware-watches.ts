import { ClosedError, InvalidInputError, reasonOf } from '../errors.js';
import type { Logger } from '../http/logger.js';
import { SharedPoll, type PollWatch } from '../shared-poll.js';
import { hardwareThresholds, type HardwareThresholds } from './judge.js';
import { pollHardware, type HardwareSources } from './poll-hardware.js';
import { snapshotOf, type HardwareSnapshot, type PollState } from './hardware-snapshot.js';

/** How often a machine's management controller is read by default: the documents discourage polling harder. */
export const DEFAULT_HARDWARE_EVERY_MS = 15_000;
/** The shortest period a watcher may ask for. */
export const MIN_HARDWARE_EVERY_MS = 1000;

export interface HardwareWatchOptions {
  /** How often to read the machine's SMC: default 15 000 ms, never under 1000. Watchers of one machine share the shortest. */
  everyMs?: number;
  /** Changes to the default thresholds (`DEFAULT_HARDWARE_THRESHOLDS`), for this watcher's snapshots. */
  thresholds?: Partial<HardwareThresholds>;
}

/** One watcher's view of its machine: `current` is the latest snapshot, undefined until the first poll ends. */
export type HardwareWatch = PollWatch<HardwareSnapshot>;

/**
 * The hardware polls of one client, one per management controller (address and account) however many watch it
 * and by whatever name; closed with the client.
 */
export class HardwareWatches {
  readonly #polls = new Map<string, SharedPoll<PollState, HardwareSnapshot>>();
  #closed = false;

  constructor(
    private readonly logger: Logger,
    private readonly minEveryMs = MIN_HARDWARE_EVERY_MS,
  ) {}

  /** Polls running now, for tests and diagnostics. */
  get pollCount(): number {
    return this.#polls.size;
  }

  watch(key: string, machine: string, sources: HardwareSources, onChange: (snapshot: HardwareSnapshot) => void, options: HardwareWatchOptions = {}): HardwareWatch {
    // A poll of a closed client would read its SMC on a timer that keeps the process alive.
    if (this.#closed) throw new ClosedError(`This media-server client is closed: create a new one to watch the hardware of ${machine}.`);
    if (typeof onChange !== 'function') throw new InvalidInputError(`watch needs a function to call with each snapshot of ${machine}'s hardware (got ${typeof onChange}).`);
    const everyMs = this.#everyMsOf(options?.everyMs);
    const thresholds = hardwareThresholds(options?.thresholds ?? {});
    return this.#pollOf(key, machine, sources).watch({ everyMs, view: (state) => snapshotOf(machine, state, thresholds), onChange });
  }

  /** The poll of one management controller, started by its first watcher and dropped with its last. */
  #pollOf(key: string, machine: string, sources: HardwareSources): SharedPoll<PollState, HardwareSnapshot> {
    const running = this.#polls.get(key);
    if (running) return running;
    const poll: SharedPoll<PollState, HardwareSnapshot> = new SharedPoll({
      read: (last, options) => pollHardware(sources, last, options),
      // The reading time alone is no change.
      changeOf: (snapshot) => JSON.stringify({ ...snapshot, readAt: undefined }),
      watcherThrew: (error) => {
        this.logger.warn(`A hardware watcher of ${machine} threw: ${reasonOf(error)}`, { code: 'HARDWARE_WATCHER_THREW', facts: { machine, reason: reasonOf(error) }, error });
      },
      onEmpty: () => {
        if (this.#polls.get(key) === poll) this.#polls.delete(key);
      },
    });
    this.#polls.set(key, poll);
    return poll;
  }

  /** Stops every poll and refuses later watches. Safe to call more than once. */
  close(): void {
    this.#closed = true;
    for (const poll of this.#polls.values()) poll.stop();
    this.#polls.clear();
  }

  #everyMsOf(everyMs: unknown): number {
    if (everyMs === undefined) return DEFAULT_HARDWARE_EVERY_MS;
    if (typeof everyMs !== 'number' || !Number.isFinite(everyMs) || everyMs < this.minEveryMs) {
      throw new InvalidInputError(`everyMs must be a number of milliseconds of at least ${this.minEveryMs} (got ${JSON.stringify(everyMs) ?? typeof everyMs}): polling a management controller harder is discouraged.`);
    }
    return everyMs;
  }
}
