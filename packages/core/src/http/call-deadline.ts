import { EventEmitter } from 'node:events';
import { AbortedError, StalledAnswerError, TimeoutError, type RequestContext } from '../errors.js';

/**
 * How one call ends early: its deadline (all retries included) or the caller's abort, whichever comes first.
 * undici takes it as `signal` (an EventEmitter with `aborted`, `reason` and an `abort` event is a documented
 * signal). It replaces an AbortController per call, which on Node 20 cost a third of core's own time per cue
 * (bench/RESULTS.md, "cue path"); its deadline is kept by the client's one DeadlineTimer rather than a timer of
 * its own.
 */
export class CallDeadline extends EventEmitter<{ abort: [] }> {
  aborted = false;
  reason: Error | undefined;
  /**
   * True while an answer's headers have arrived and its body is being read: the deadline passing then means the
   * body stopped (StalledAnswerError), not that nothing came back (TimeoutError): docs/api-notes.md, "Answers that
   * stall or come late".
   */
  receiving = false;
  /** When the deadline passes, on the clock of `performance.now()`. */
  readonly endsAt: number;
  readonly #context: RequestContext;
  readonly #timeoutMs: number;
  readonly #timer: DeadlineTimer;
  readonly #callerSignal: AbortSignal | undefined;
  readonly #onCallerAbort: (() => void) | undefined;

  constructor(context: RequestContext, timeoutMs: number, callerSignal: AbortSignal | undefined, timer: DeadlineTimer) {
    super();
    this.#context = context;
    this.#timeoutMs = timeoutMs;
    this.#timer = timer;
    this.endsAt = performance.now() + timeoutMs;
    timer.add(this);
    if (!callerSignal) return;
    this.#callerSignal = callerSignal;
    this.#onCallerAbort = () => this.#abort(new AbortedError(`${context.method} ${context.url} was aborted by the caller.`, context));
    if (callerSignal.aborted) this.#onCallerAbort();
    else callerSignal.addEventListener('abort', this.#onCallerAbort, { once: true });
  }

  /**
   * `abort` is emitted at most once and every listener is dropped with it, so a listener added with `once` needs
   * no wrapper of its own: undici adds one to every request's signal.
   */
  override once(event: 'abort', listener: () => void): this {
    return this.on(event, listener);
  }

  /** The call is over: its deadline no longer counts, and the caller's signal is no longer listened to. */
  clear(): void {
    this.#timer.delete(this);
    if (this.#onCallerAbort) this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
  }

  /** The deadline has passed: called by the DeadlineTimer. */
  expire(): void {
    this.#abort(this.#timedOut());
  }

  #timedOut(): Error {
    const [context, timeoutMs] = [this.#context, this.#timeoutMs];
    if (!this.receiving) return new TimeoutError(timeoutMessage(context, timeoutMs), timeoutMs, context);
    return new StalledAnswerError(
      `${context.method} ${context.url} started to answer, but the rest of its answer did not arrive within ${timeoutMs} ms: the machine is reachable, but large answers do not get through. Check the show network's MTU: jumbo frames must be on for every switch and machine on the path, or off for all of them.`,
      timeoutMs,
      context,
    );
  }

  #abort(reason: Error): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.clear();
    this.emit('abort');
    this.removeAllListeners('abort');
  }
}

/**
 * The deadlines of one client's calls in flight, kept by one timer: armed for the earliest of them, and left armed
 * when a call ends before its deadline, so a call usually costs no timer of its own. A timer made and cleared
 * for every call was the larger part of what core allocated per cue beyond undici's own request, and every
 * allocation brings the next garbage collection, and the call it lands in, nearer (bench/RESULTS.md, "cue path").
 * The timer keeps the process running only while a call is in flight, as a timer per call did.
 */
export class DeadlineTimer {
  readonly #inFlight = new Set<CallDeadline>();
  #timer: NodeJS.Timeout | undefined;
  /** When the timer fires, on the clock of `performance.now()`; Infinity while it is not armed. */
  #firesAt = Infinity;
  #stopping = false;

  add(deadline: CallDeadline): void {
    this.#inFlight.add(deadline);
    if (this.#timer === undefined || deadline.endsAt < this.#firesAt) this.#arm(deadline.endsAt);
    else if (this.#inFlight.size === 1) this.#timer.ref();
  }

  delete(deadline: CallDeadline): void {
    if (!this.#inFlight.delete(deadline) || this.#inFlight.size > 0) return;
    if (this.#stopping) this.#disarm();
    else this.#timer?.unref();
  }

  /**
   * The client is closing: the timer goes once no call is in flight. Calls still in flight keep their deadlines,
   * since closing the pool waits for them.
   */
  stop(): void {
    this.#stopping = true;
    if (this.#inFlight.size === 0) this.#disarm();
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#firesAt = Infinity;
  }

  #arm(at: number): void {
    this.#disarm();
    this.#firesAt = at;
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, at - performance.now()));
  }

  /** Ends every call whose deadline has passed, and arms the timer for the earliest one left. */
  #expire(): void {
    this.#timer = undefined;
    this.#firesAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const deadline of this.#inFlight) {
      if (deadline.endsAt <= now) {
        this.#inFlight.delete(deadline);
        deadline.expire();
      } else {
        next = Math.min(next, deadline.endsAt);
      }
    }
    // A call ended meanwhile may have armed the timer again for itself; the earliest deadline wins either way.
    if (next !== Infinity && next < this.#firesAt) this.#arm(next);
  }
}

function timeoutMessage(context: RequestContext, timeoutMs: number): string {
  return `${context.method} ${context.url} got no answer within ${timeoutMs} ms: check that the machine is on and reachable, or raise timeoutMs.`;
}
