/**
 * One gentle REST poll shared by every key that watches it: it runs only while someone watches, one request
 * at a time, every `intervalMs` after the previous answer. Servers are not to be polled often; a
 * few seconds is right for health (docs/api-notes.md, "Health and FPS").
 */

export type PollState<T> =
  | { status: 'connecting' }
  | { status: 'online'; value: T; /** When the request that fetched this value was sent (ms, monotonic: `performance.now()`). */ requestedAt: number }
  | { status: 'offline'; error: unknown };

export type PollListener<T> = (state: PollState<T>) => void;

export interface PollOptions {
  intervalMs: number;
  /**
   * A value older than this is no longer shown as current, even while a slow request is still out: the
   * watchers are told `offline` (default three intervals).
   */
  staleAfterMs?: number;
  /** Told about a listener that threw; the poll and the other listeners go on. */
  onListenerError?(error: unknown): void;
}

export class SharedPoll<T> {
  readonly #listeners = new Set<PollListener<T>>();
  #state: PollState<T> = { status: 'connecting' };
  #timer: NodeJS.Timeout | undefined;
  #staleTimer: NodeJS.Timeout | undefined;
  #inFlight: AbortController | undefined;
  /** A refresh asked for while a request was in flight: poll again as soon as it answers. */
  #again = false;
  #disposed = false;

  constructor(
    private readonly fetch: (signal: AbortSignal) => Promise<T>,
    private readonly options: PollOptions,
  ) {}

  get state(): PollState<T> {
    return this.#state;
  }

  /** Starts watching: the listener hears the current state at once, then every change. Returns the stop. */
  watch(listener: PollListener<T>): () => void {
    if (this.#disposed) return () => undefined;
    this.#listeners.add(listener);
    this.#tell(listener, this.#state);
    if (this.#listeners.size === 1) this.#pollNow();
    return () => {
      if (!this.#listeners.delete(listener) || this.#listeners.size > 0) return;
      this.#stop();
    };
  }

  /** Polls now instead of at the next tick, e.g. after a cue or when an operator presses a health key. */
  refresh(): void {
    if (this.#disposed || this.#listeners.size === 0) return;
    if (this.#inFlight) {
      this.#again = true;
      return;
    }
    this.#pollNow();
  }

  /**
   * Polls afresh now, giving up a request still out: after the computer slept, that request may never be
   * answered, and the keys would wait for its timeout.
   */
  restart(): void {
    if (this.#disposed || this.#listeners.size === 0) return;
    this.#inFlight?.abort();
    this.#inFlight = undefined;
    this.#again = false;
    this.#pollNow();
  }

  dispose(): void {
    this.#disposed = true;
    this.#listeners.clear();
    this.#stop();
  }

  #pollNow(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#inFlight) return;
    const controller = new AbortController();
    this.#inFlight = controller;
    const requestedAt = performance.now();
    this.fetch(controller.signal).then(
      (value) => this.#settle(controller, { status: 'online', value, requestedAt }),
      (error: unknown) => this.#settle(controller, { status: 'offline', error }),
    );
  }

  #settle(controller: AbortController, state: PollState<T>): void {
    if (this.#inFlight !== controller) return;
    this.#inFlight = undefined;
    if (this.#disposed || this.#listeners.size === 0) return;
    this.#publish(state);
    if (this.#listeners.size === 0) return;
    if (state.status === 'online') this.#watchForStaleness();
    if (this.#again) {
      this.#again = false;
      this.#pollNow();
      return;
    }
    this.#timer = setTimeout(() => this.#pollNow(), this.options.intervalMs);
  }

  #publish(state: PollState<T>): void {
    this.#state = state;
    for (const listener of [...this.#listeners]) this.#tell(listener, state);
  }

  #watchForStaleness(): void {
    clearTimeout(this.#staleTimer);
    const staleAfterMs = this.options.staleAfterMs ?? this.options.intervalMs * 3;
    this.#staleTimer = setTimeout(() => {
      if (this.#state.status !== 'online' || this.#listeners.size === 0) return;
      this.#publish({ status: 'offline', error: new StaleValueError(staleAfterMs) });
    }, staleAfterMs);
  }

  #stop(): void {
    clearTimeout(this.#timer);
    clearTimeout(this.#staleTimer);
    this.#timer = undefined;
    this.#staleTimer = undefined;
    this.#inFlight?.abort();
    this.#inFlight = undefined;
    this.#again = false;
    // The next watcher must not be shown a value from before the pause as if it were current.
    this.#state = { status: 'connecting' };
  }

  #tell(listener: PollListener<T>, state: PollState<T>): void {
    try {
      listener(state);
    } catch (error) {
      this.options.onListenerError?.(error);
    }
  }
}

/** The server has not answered for longer than a value may be shown as current. */
export class StaleValueError extends Error {
  override name = 'StaleValueError';
  constructor(readonly ageMs: number) {
    super(`No answer from the media server for ${Math.round(ageMs / 1000)} s.`);
  }
}
