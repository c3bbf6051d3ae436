import { SlowAnswers } from './slow-answers.js';
import { StalledAnswers } from './stalled-answers.js';

export interface FailNext {
  status: number;
  remaining: number;
}

/** Faults tests switch on through the control endpoint; they apply to every request but control itself. */
export class Faults {
  /** `stallBody`: answers to these paths stop after their headers and part of the body. */
  readonly stalledAnswers = new StalledAnswers();
  /** `slowAnswer`: commands take effect at once and answer late. */
  readonly slowAnswers = new SlowAnswers();
  #latencyMs = 0;
  #jitterMs = 0;
  #failNext: FailNext | undefined;

  get latencyMs(): number {
    return this.#latencyMs;
  }

  get failNext(): FailNext | undefined {
    return this.#failNext && { ...this.#failNext };
  }

  get jitterMs(): number {
    return this.#jitterMs;
  }

  /** Every request waits `ms`, plus up to `jitterMs` more drawn per request, so answers can overtake each other. */
  setLatency(ms: number, jitterMs = 0): void {
    this.#latencyMs = ms;
    this.#jitterMs = jitterMs;
  }

  /** How long the next request waits before it is answered. */
  nextDelayMs(): number {
    return this.#latencyMs + Math.floor(Math.random() * this.#jitterMs);
  }

  /** The next `count` requests answer `status`; a count of 0 clears it. */
  failNextRequests(status: number, count: number): void {
    this.#failNext = count > 0 ? { status, remaining: count } : undefined;
  }

  /** The status this request must fail with, counting it; undefined when no failure is due. */
  takeFailure(): number | undefined {
    const due = this.#failNext;
    if (!due) return undefined;
    due.remaining -= 1;
    if (due.remaining === 0) this.#failNext = undefined;
    return due.status;
  }

  clear(): void {
    this.#latencyMs = 0;
    this.#jitterMs = 0;
    this.#failNext = undefined;
    this.stalledAnswers.clear();
    this.slowAnswers.clear();
  }
}
