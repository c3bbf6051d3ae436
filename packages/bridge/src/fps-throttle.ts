import type { FpsAlert } from '@stagelink/core';

export interface FpsPayload {
  value: number;
  average: number;
  alert: FpsAlert;
  stale?: true;
}

export interface ThrottleTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemTimers: ThrottleTimers = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * One machine's FPS messages: never more than one per period, the newest value winning when several arrive
 * within one, and a change smaller than the deadband dropped unless the alert class moves. A value that arrives
 * when the period has passed goes out at once, so throttling adds no delay to a steady stream.
 */
export class FpsThrottle {
  #last: FpsPayload | undefined;
  #lastAt = -Infinity;
  #pending: FpsPayload | undefined;
  #timer: unknown;

  constructor(
    private readonly periodMs: number,
    private readonly deadband: number,
    private readonly publish: (payload: FpsPayload) => void,
    private readonly timers: ThrottleTimers = systemTimers,
  ) {}

  offer(payload: FpsPayload): void {
    const reference = this.#pending ?? this.#last;
    if (reference && !reference.stale && reference.alert === payload.alert && Math.abs(reference.value - payload.value) < this.deadband) return;
    const wait = this.#lastAt + this.periodMs - this.timers.now();
    if (wait <= 0 && this.#timer === undefined) {
      this.#send(payload);
      return;
    }
    this.#pending = payload;
    this.#timer ??= this.timers.setTimeout(() => {
      this.#timer = undefined;
      const pending = this.#pending;
      this.#pending = undefined;
      if (pending) this.#send(pending);
    }, Math.max(0, wait));
  }

  /** The value can no longer be seen: said at once, whatever the rate, and anything waiting is dropped. */
  markStale(): void {
    this.#cancel();
    if (!this.#last || this.#last.stale) return;
    this.#last = { ...this.#last, stale: true };
    this.publish(this.#last);
  }

  close(): void {
    this.#cancel();
  }

  #cancel(): void {
    if (this.#timer !== undefined) this.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending = undefined;
  }

  #send(payload: FpsPayload): void {
    this.#last = payload;
    this.#lastAt = this.timers.now();
    this.publish(payload);
  }
}
