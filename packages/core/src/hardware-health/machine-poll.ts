import { isUnreachable, reasonOf } from '../errors.js';
import type { Logger } from '../http/logger.js';
import type { HardwareThresholds } from './judge.js';
import { readHardware } from './readings.js';
import { snapshotOf, type HardwareSnapshot, type PollState } from './hardware-snapshot.js';

/** The three reads of one poll, each with the poll's deadline and signal. */
export interface HardwareSources {
  stats(options: ReadOptions): Promise<unknown>;
  powerStatus(options: ReadOptions): Promise<unknown>;
  outputs(options: ReadOptions): Promise<unknown>;
}

export interface ReadOptions {
  signal: AbortSignal;
  timeoutMs: number;
}

/** One `watch()`: its name for the machine, its period, its thresholds and what it was told last. */
export interface HardwareWatcher {
  machine: string;
  everyMs: number;
  thresholds: HardwareThresholds;
  onChange(snapshot: HardwareSnapshot): void;
  closed: boolean;
  current?: HardwareSnapshot;
  /** The last snapshot told, without `readAt`, to tell only changes. */
  told?: string;
}

/** A poll's deadline: its period, at most this (a management controller on the show network answers in milliseconds). */
const MAX_DEADLINE_MS = 5000;

/**
 * One machine's management controller, read once per period for every watcher of it: the period is the shortest
 * any watcher asked for. Polls never overlap; the next starts one period after the last one started, or when it
 * ended if it took longer. Nothing here rejects: a failed read is the snapshot's status and reasons.
 */
export class MachinePoll {
  readonly #watchers = new Set<HardwareWatcher>();
  #state: PollState | undefined;
  #timer: NodeJS.Timeout | undefined;
  #inFlight: AbortController | undefined;
  #lastStart = 0;
  #stopped = false;

  constructor(
    private readonly sources: HardwareSources,
    private readonly logger: Logger,
    private readonly onEmpty: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  get watcherCount(): number {
    return this.#watchers.size;
  }

  add(watcher: HardwareWatcher): void {
    const period = this.#period();
    this.#watchers.add(watcher);
    if (this.#watchers.size === 1 && this.#inFlight === undefined && this.#timer === undefined) {
      void this.#poll();
      return;
    }
    if (this.#state) {
      const state = this.#state;
      queueMicrotask(() => this.#tell(watcher, state));
    }
    // A watcher that wants it more often than the poll runs brings the next poll forward.
    if (watcher.everyMs < period && this.#timer !== undefined) this.#schedule();
  }

  remove(watcher: HardwareWatcher): void {
    if (!this.#watchers.delete(watcher)) return;
    if (this.#watchers.size > 0) return;
    this.stop();
    this.onEmpty();
  }

  /** Ends the poll: its timer cleared, a read in flight aborted, no watcher told again. Safe to call more than once. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#inFlight?.abort();
    this.#inFlight = undefined;
    for (const watcher of this.#watchers) watcher.closed = true;
    this.#watchers.clear();
  }

  #period(): number {
    let period = Infinity;
    for (const watcher of this.#watchers) period = Math.min(period, watcher.everyMs);
    return period;
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#stopped || this.#watchers.size === 0) return;
    const wait = Math.max(0, this.#lastStart + this.#period() - this.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#poll();
    }, wait);
  }

  async #poll(): Promise<void> {
    const controller = new AbortController();
    this.#inFlight = controller;
    this.#lastStart = this.now();
    const timeoutMs = Math.min(this.#period(), MAX_DEADLINE_MS);
    const options = { signal: controller.signal, timeoutMs };
    try {
      const [stats, powerStatus, outputs] = await Promise.allSettled([this.sources.stats(options), this.sources.powerStatus(options), this.sources.outputs(options)]);
      if (controller.signal.aborted) return;
      this.#state = this.#next(stats, powerStatus, outputs, timeoutMs);
      for (const watcher of [...this.#watchers]) this.#tell(watcher, this.#state);
    } catch (error) {
      // Only a bug lands here (the reads are settled, watchers are guarded): keep polling, say so once a poll.
      const machine = [...this.#watchers][0]?.machine ?? '';
      this.logger.warn(`hardware poll of ${machine}: ${reasonOf(error)}`, { code: 'HARDWARE_WATCHER_THREW', facts: { machine, reason: reasonOf(error) }, error });
    } finally {
      if (this.#inFlight === controller) this.#inFlight = undefined;
      if (!controller.signal.aborted) this.#schedule();
    }
  }

  #next(stats: PromiseSettledResult<unknown>, powerStatus: PromiseSettledResult<unknown>, outputs: PromiseSettledResult<unknown>, timeoutMs: number): PollState {
    if (stats.status === 'fulfilled') {
      // The power status (behind a login on some builds) and the cards (absent on other makes) are optional.
      const readings = readHardware({
        stats: stats.value,
        ...(powerStatus.status === 'fulfilled' ? { powerStatus: powerStatus.value } : {}),
        ...(outputs.status === 'fulfilled' ? { outputs: outputs.value } : {}),
      });
      return { status: 'online', readings, readAt: this.now() };
    }
    const error: unknown = stats.reason;
    if (isUnreachable(error) || this.#state === undefined || this.#state.status === 'offline') {
      const why = isUnreachable(error) ? `did not answer within ${timeoutMs / 1000} s` : 'answered with an error';
      return { status: 'offline', problem: `the management controller ${why}: ${reasonOf(error)}` };
    }
    const { readings, readAt } = this.#state;
    const at = new Date(readAt).toISOString().slice(11, 19);
    return { status: 'stale', readings, readAt, problem: `the management controller answered with an error, readings are from ${at} UTC: ${reasonOf(error)}` };
  }

  #tell(watcher: HardwareWatcher, state: PollState): void {
    if (watcher.closed) return;
    const snapshot = snapshotOf(watcher.machine, state, watcher.thresholds);
    watcher.current = snapshot;
    const told = JSON.stringify({ ...snapshot, readAt: undefined });
    if (told === watcher.told) return;
    watcher.told = told;
    try {
      watcher.onChange(snapshot);
    } catch (error) {
      const message = `A hardware watcher of ${watcher.machine} threw: ${reasonOf(error)}`;
      this.logger.warn(message, { code: 'HARDWARE_WATCHER_THREW', facts: { machine: watcher.machine, reason: reasonOf(error) }, error });
    }
  }
}
