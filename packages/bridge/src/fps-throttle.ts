import { Throttle, type Clock, type FpsAlert } from '@stagelink/core';
import type { StaleReason } from './stale-reasons.js';

export interface FpsPayload {
  value: number;
  average: number;
  alert: FpsAlert;
  stale?: true;
  reason?: StaleReason;
}

/**
 * One machine's FPS messages: never more than one per period, the newest value winning when several arrive
 * within one, and a change smaller than the deadband dropped unless the alert class moves. A value that arrives
 * when the period has passed goes out at once, so throttling adds no delay to a steady stream.
 */
export class FpsThrottle {
  #last: FpsPayload | undefined;
  readonly #throttle: Throttle<FpsPayload>;

  constructor(
    periodMs: number,
    private readonly deadband: number,
    private readonly publish: (payload: FpsPayload) => void,
    timers?: Clock,
  ) {
    this.#throttle = new Throttle((payload) => this.#send(payload), periodMs, timers);
  }

  offer(payload: FpsPayload): void {
    const reference = this.#throttle.pending ?? this.#last;
    if (reference && !reference.stale && reference.alert === payload.alert && Math.abs(reference.value - payload.value) < this.deadband) return;
    this.#throttle.push(payload);
  }

  /**
   * The value can no longer be seen: said at once with the reason, whatever the rate, and anything waiting is
   * dropped. Said again only when the reason changes.
   */
  markStale(reason: StaleReason): void {
    this.#throttle.cancel();
    if (!this.#last || (this.#last.stale && this.#last.reason === reason)) return;
    this.#last = { ...this.#last, stale: true, reason };
    this.publish(this.#last);
  }

  close(): void {
    this.#throttle.close();
  }

  #send(payload: FpsPayload): void {
    this.#last = payload;
    this.publish(payload);
  }
}
