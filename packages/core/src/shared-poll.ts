/** What each read of a shared poll is given: its deadline, and a signal that aborts it when the poll stops. */
export interface PollReadOptions {
  signal: AbortSignal;
  timeoutMs: number;
}

/** One watcher of a shared poll: how often it wants a reading, how it sees the poll's state, and what it is told. */
export interface PollWatcherSpec<State, Snapshot> {
  everyMs: number;
  /** This watcher's snapshot of the poll's state (its own name for the source, its own thresholds). */
  view(state: State): Snapshot;
  onChange(snapshot: Snapshot): void;
}

/** One watcher's view: `current` is its latest snapshot, undefined until the first read ends or once closed. */
export interface PollWatch<Snapshot> {
  readonly current: Snapshot | undefined;
  /** Stops telling this watcher; the poll stops with its last watcher. Safe to call more than once. */
  close(): void;
}

export interface SharedPollOptions<State, Snapshot> {
  /** One reading. Never rejects: a failed read is a state, built from the last one (stale, offline). */
  read(last: State | undefined, options: PollReadOptions): Promise<State>;
  /** What of a snapshot is a change worth telling (a new reading time alone is not). */
  changeOf(snapshot: Snapshot): string;
  /** A watcher's callback threw: logged by the owner, in its words. */
  watcherThrew(error: unknown): void;
  /** Told when the last watcher left, after the poll stopped. */
  onEmpty?(): void;
}

interface Watcher<State, Snapshot> {
  spec: PollWatcherSpec<State, Snapshot>;
  closed: boolean;
  current?: Snapshot;
  /** The last snapshot told, as `changeOf` gives it. */
  told?: string;
}

/** A read's deadline: its period, at most this (a director or an SMC on the show network answers in milliseconds). */
const MAX_DEADLINE_MS = 5000;

/**
 * One source read once per period for every watcher of it: the period is the shortest any watcher asked for, and a
 * watcher that wants it more often brings the next read forward. Reads never overlap; the next starts one period
 * after the last one started, or when it ended if it took longer. Each watcher is told its own snapshot of each
 * reading, only when that changed. When the last watcher leaves, the poll stops: its timer cleared, a read in flight
 * aborted and its state dropped, so a watcher that comes later waits for a reading of its own, never an old one.
 */
export class SharedPoll<State, Snapshot> {
  readonly #watchers = new Set<Watcher<State, Snapshot>>();
  #state: State | undefined;
  #timer: NodeJS.Timeout | undefined;
  #inFlight: AbortController | undefined;
  #lastStart = 0;

  constructor(private readonly options: SharedPollOptions<State, Snapshot>) {}

  watch(spec: PollWatcherSpec<State, Snapshot>): PollWatch<Snapshot> {
    const period = this.#period();
    const watcher: Watcher<State, Snapshot> = { spec, closed: false };
    this.#watchers.add(watcher);
    if (this.#inFlight === undefined && this.#timer === undefined) {
      void this.#poll();
    } else {
      const state = this.#state;
      if (state !== undefined) queueMicrotask(() => this.#tell(watcher, state));
      if (spec.everyMs < period && this.#timer !== undefined) this.#schedule();
    }
    return {
      get current() {
        return watcher.closed ? undefined : watcher.current;
      },
      close: () => {
        if (watcher.closed) return;
        watcher.closed = true;
        this.#watchers.delete(watcher);
        if (this.#watchers.size > 0) return;
        this.stop();
        this.options.onEmpty?.();
      },
    };
  }

  /** Stops the poll and lets go of every watcher. Safe to call more than once. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#inFlight?.abort();
    this.#inFlight = undefined;
    this.#state = undefined;
    for (const watcher of this.#watchers) watcher.closed = true;
    this.#watchers.clear();
  }

  #period(): number {
    let period = Infinity;
    for (const watcher of this.#watchers) period = Math.min(period, watcher.spec.everyMs);
    return period;
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#watchers.size === 0) return;
    const wait = Math.max(0, this.#lastStart + this.#period() - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#poll();
    }, wait);
  }

  async #poll(): Promise<void> {
    const controller = new AbortController();
    this.#inFlight = controller;
    this.#lastStart = Date.now();
    const timeoutMs = Math.min(this.#period(), MAX_DEADLINE_MS);
    try {
      const state = await this.options.read(this.#state, { signal: controller.signal, timeoutMs });
      // Stopped meanwhile: this reading is nobody's now.
      if (controller.signal.aborted) return;
      this.#state = state;
      for (const watcher of [...this.#watchers]) this.#tell(watcher, state);
    } catch (error) {
      // Only a bug lands here (reads never reject, watchers are guarded): keep polling, say so.
      if (!controller.signal.aborted) this.options.watcherThrew(error);
    } finally {
      if (this.#inFlight === controller) this.#inFlight = undefined;
      if (!controller.signal.aborted) this.#schedule();
    }
  }

  #tell(watcher: Watcher<State, Snapshot>, state: State): void {
    if (watcher.closed) return;
    try {
      const snapshot = watcher.spec.view(state);
      watcher.current = snapshot;
      const told = this.options.changeOf(snapshot);
      if (told === watcher.told) return;
      watcher.told = told;
      watcher.spec.onChange(snapshot);
    } catch (error) {
      this.options.watcherThrew(error);
    }
  }
}
