/** A retained payload: a JSON object, or text (the bridge's own `online` / `offline`). */
export type StatePayload = Record<string, unknown> | string;

/**
 * The last JSON of every retained topic, so that a broker that restarted (and forgot everything) or a bridge that
 * reconnected gets all of it again, and so that a topic is published only when its payload changed.
 */
export class RetainedState {
  readonly #published = new Map<string, string>();

  /** Records a payload; answers its JSON when it differs from what the topic holds, undefined when unchanged. */
  set(topic: string, payload: StatePayload): string | undefined {
    const json = JSON.stringify(payload);
    if (this.#published.get(topic) === json) return undefined;
    this.#published.set(topic, json);
    return json;
  }

  /** Forgets a topic (what it was about has gone): it is no longer republished. */
  delete(topic: string): void {
    this.#published.delete(topic);
  }

  topics(): string[] {
    return [...this.#published.keys()];
  }

  /** Every topic and its JSON, for a republish after a (re)connect. */
  entries(): [string, string][] {
    return [...this.#published.entries()];
  }
}
