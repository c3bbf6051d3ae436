import { LiveUpdateError, reasonOf, StagelinkError } from '../errors.js';
import type { Logger } from '../http/logger.js';
import type { ClockStatus, ShowClockSnapshot, WatchOptions } from './transport-clock.js';

/** One `watch()`: its callbacks, and where it is now (its transport still looked for, or on a clock). */
export interface Watcher {
  onChange(snapshot: ShowClockSnapshot): void;
  options: WatchOptions;
  toldStatus?: ClockStatus;
  /** Closed watchers are never called again, even by a telling already under way when another callback closed it. */
  closed: boolean;
  /** The key of the look for its transport, while it is being looked for. */
  look?: string;
  clock?: { remove(watcher: Watcher): void; snapshotFor(watcher: Watcher): ShowClockSnapshot | undefined };
}

/**
 * Tells watchers of one transport their status and problems: each problem once (a director that stays away is
 * reported once, not at every retry), never to a closed watcher, and a watcher that throws does not stop the others.
 */
export class WatcherTeller {
  readonly #told = new Set<string>();

  constructor(
    private readonly transport: string,
    private readonly logger: Logger,
  ) {}

  problem(error: unknown, watchers: Iterable<Watcher>): void {
    const problem = error instanceof StagelinkError ? error : new StagelinkError(reasonOf(error), undefined, { cause: error });
    if (this.#told.has(problem.message)) return;
    this.#told.add(problem.message);
    const { transport } = this;
    this.logger.warn(`show clock of ${transport}: ${problem.message}`, { code: 'SHOW_CLOCK_PROBLEM', facts: { transport, reason: problem.message }, error: problem });
    for (const watcher of [...watchers]) if (!watcher.closed) this.call(() => watcher.options.onError?.(problem));
  }

  /** The problems told so far may be told again: the transport was found and watched since. */
  forgetProblems(): void {
    this.#told.clear();
  }

  status(watcher: Watcher, status: ClockStatus): void {
    if (watcher.closed || watcher.toldStatus === status) return;
    watcher.toldStatus = status;
    this.call(() => watcher.options.onStatus?.(status));
  }

  change(watcher: Watcher, snapshot: ShowClockSnapshot): void {
    if (!watcher.closed) this.call(() => watcher.onChange(snapshot));
  }

  call(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.logger.warn(new LiveUpdateError(`A show clock watcher threw: ${reasonOf(error)}`).message, { code: 'SHOW_CLOCK_WATCHER_THREW', facts: { reason: reasonOf(error) }, error });
    }
  }
}
