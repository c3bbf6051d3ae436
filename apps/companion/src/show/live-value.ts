/**
 * One value of the live-update stream (a machine's FPS, a transport's volume, an understudy's takeover): its last
 * value and whether it is live. A value that is not live is forgotten, so it can never be shown as live again
 * before the server sends a new one.
 */
import { reasonOf, type LiveRequest, type LiveStatus, type LiveSubscription, type MediaServer } from '@stagelink/core';
import { freshnessOfLive, type Freshness } from './freshness.js';

export class LiveValue<T> {
  readonly #subscription: LiveSubscription | undefined;
  #value: T | undefined;
  #status: LiveStatus = 'connecting';
  #problem: string | undefined;

  constructor(
    server: MediaServer,
    request: LiveRequest,
    private readonly read: (value: unknown) => T | undefined,
    private readonly onChange: (value: T | undefined) => void,
    private readonly linkWasUp: () => boolean,
  ) {
    try {
      this.#subscription = server.live.subscribe(request, ({ value }) => this.#onValue(value), {
        onStatus: (status) => this.#onStatus(status),
        onError: (error) => {
          this.#problem = error.message;
          this.#forget();
        },
      });
    } catch (error) {
      this.#problem = reasonOf(error);
    }
  }

  get value(): T | undefined {
    return this.freshness === 'live' ? this.#value : undefined;
  }

  get freshness(): Freshness {
    if (this.#problem !== undefined) return this.#status === 'online' ? 'stale' : freshnessOfLive(this.#status, false, this.linkWasUp());
    return freshnessOfLive(this.#status, this.#value !== undefined, this.linkWasUp());
  }

  /** Why the server refused the value (a machine name it does not know), if it did. */
  get problem(): string | undefined {
    return this.#problem;
  }

  /** Writes through the stream (volume, brightness): rejects while the stream is down, so nothing lands late. */
  async set(value: T): Promise<void> {
    if (!this.#subscription) return Promise.reject(new Error(this.#problem ?? 'This value is not watched.'));
    return this.#subscription.set(value);
  }

  close(): void {
    this.#subscription?.close();
  }

  #onValue(raw: unknown): void {
    const value = this.read(raw);
    if (value === undefined) return;
    this.#value = value;
    this.#problem = undefined;
    this.onChange(value);
  }

  #onStatus(status: LiveStatus): void {
    this.#status = status;
    if (status !== 'online') this.#forget();
    else this.onChange(this.value);
  }

  #forget(): void {
    this.#value = undefined;
    this.onChange(undefined);
  }
}

export const asNumber = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
export const asBoolean = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
