import { EventEmitter } from 'node:events';
import { AbortedError, StalledAnswerError, TimeoutError, type RequestContext } from '../errors.js';

/**
 * How one call ends early: its deadline (all retries included) or the caller's abort, whichever comes first.
 * undici takes it as `signal` (an EventEmitter with `aborted`, `reason` and an `abort` event is a documented
 * signal). It replaces an AbortController per call, which on Node 20 cost a third of core's own time per cue
 * (bench/RESULTS.md, "cue path").
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
  readonly #timer: NodeJS.Timeout;
  readonly #callerSignal: AbortSignal | undefined;
  readonly #onCallerAbort: () => void;

  constructor(context: RequestContext, timeoutMs: number, callerSignal: AbortSignal | undefined) {
    super();
    this.#callerSignal = callerSignal;
    this.#onCallerAbort = () => this.#abort(new AbortedError(`${context.method} ${context.url} was aborted by the caller.`, context));
    this.#timer = setTimeout(() => this.#abort(this.#timedOut(context, timeoutMs)), timeoutMs);
    if (callerSignal?.aborted) this.#onCallerAbort();
    else callerSignal?.addEventListener('abort', this.#onCallerAbort, { once: true });
  }

  /** The call is over: stop the timer and stop listening to the caller's signal. */
  clear(): void {
    clearTimeout(this.#timer);
    this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
  }

  #timedOut(context: RequestContext, timeoutMs: number): Error {
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
  }
}

function timeoutMessage(context: RequestContext, timeoutMs: number): string {
  return `${context.method} ${context.url} got no answer within ${timeoutMs} ms: check that the machine is on and reachable, or raise timeoutMs.`;
}
