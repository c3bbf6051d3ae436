export interface FailNext {
  status: number;
  remaining: number;
}

/** Faults tests switch on through the control endpoint; they apply to every request but control itself. */
export class Faults {
  #latencyMs = 0;
  #failNext: FailNext | undefined;

  get latencyMs(): number {
    return this.#latencyMs;
  }

  get failNext(): FailNext | undefined {
    return this.#failNext && { ...this.#failNext };
  }

  setLatency(ms: number): void {
    this.#latencyMs = ms;
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
    this.#failNext = undefined;
  }
}
