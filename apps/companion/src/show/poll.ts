/**
 * One read of the server asked again and again (the session, its health, the transports): the last answer, or the
 * last failure, for the variables and feedbacks built on it. A read starts only once the one before settled, so a
 * slow server is never asked twice at once; closing it aborts the read in flight. A failure that asking again would
 * make worse (an account refused) stops it until a refresh.
 */
export type PollState<T> = { kind: 'waiting' } | { kind: 'answered'; value: T } | { kind: 'failed'; error: unknown; value: T | undefined };

export class Poll<T> {
  #state: PollState<T> = { kind: 'waiting' };
  #timer: NodeJS.Timeout | undefined;
  #abort: AbortController | undefined;
  #closed = false;
  /** A refresh came while a read was in flight. */
  #again = false;

  constructor(
    private readonly read: (signal: AbortSignal) => Promise<T>,
    private readonly intervalMs: number,
    /** Told after every read, answered or failed. */
    private readonly onChange: () => void,
    /** A failure after which asking again would do harm: no read follows it until a refresh. */
    private readonly stopsAfter: (error: unknown) => boolean = () => false,
  ) {}

  get state(): PollState<T> {
    return this.#state;
  }

  /** The last answer, or undefined while none came or the last read failed. */
  get value(): T | undefined {
    return this.#state.kind === 'answered' ? this.#state.value : undefined;
  }

  start(): void {
    if (!this.#closed && !this.#abort && !this.#timer) void this.#readNow();
  }

  /**
   * Reads at once (after a change the module made itself), without waiting for the interval. While a read is in
   * flight it may have been answered before the change: another read follows it at once.
   */
  refresh(): void {
    if (this.#closed) return;
    if (this.#abort) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = undefined;
    void this.#readNow();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#abort?.abort();
  }

  async #readNow(): Promise<void> {
    const abort = new AbortController();
    this.#abort = abort;
    try {
      const value = await this.read(abort.signal);
      if (this.#closed) return;
      this.#state = { kind: 'answered', value };
    } catch (error) {
      if (this.#closed) return;
      const last = this.#state.kind === 'waiting' ? undefined : this.#state.value;
      this.#state = { kind: 'failed', error, value: last };
    } finally {
      this.#abort = undefined;
      const again = this.#again;
      this.#again = false;
      const stopped = !again && this.#state.kind === 'failed' && this.stopsAfter(this.#state.error);
      this.#timer = this.#closed || stopped ? undefined : setTimeout(() => void this.#readNow(), again ? 0 : this.intervalMs);
    }
    this.onChange();
  }
}
