import type { StaleReason } from './stale-reasons.js';

/** A state payload: a JSON object, or text (the bridge's own `online` / `offline`). */
export type StatePayload = Record<string, unknown> | string;

/**
 * The last payload of every retained topic, so that a broker that restarted (and forgot everything) or a bridge
 * that reconnected gets all of it again, and so that a value the bridge can no longer see is republished with
 * `"stale": true` and the reason rather than left looking live.
 */
export class RetainedState {
  readonly #payloads = new Map<string, StatePayload>();
  readonly #published = new Map<string, string>();

  /** Records a payload; answers its JSON when it differs from what the topic holds, undefined when unchanged. */
  set(topic: string, payload: StatePayload): string | undefined {
    this.#payloads.set(topic, payload);
    const json = JSON.stringify(payload);
    if (this.#published.get(topic) === json) return undefined;
    this.#published.set(topic, json);
    return json;
  }

  get(topic: string): StatePayload | undefined {
    return this.#payloads.get(topic);
  }

  /**
   * The topic's last object payload with `"stale": true` and `reason`; undefined when it has none or is already
   * stale for that reason. A new reason replaces the old one: the newest is what a consumer can act on.
   */
  staleVersion(topic: string, reason: StaleReason): Record<string, unknown> | undefined {
    const payload = this.#payloads.get(topic);
    if (typeof payload !== 'object' || (payload.stale === true && payload.reason === reason)) return undefined;
    return { ...payload, stale: true, reason };
  }

  topics(): string[] {
    return [...this.#payloads.keys()];
  }

  /** Every topic and its JSON, for a republish after a (re)connect. */
  entries(): [string, string][] {
    return [...this.#published.entries()];
  }
}
