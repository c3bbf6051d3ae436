/**
 * One value of the live-update stream (a machine's FPS, a transport's volume, an understudy's takeover): its last
 * value and whether it is live. A value that is not live is forgotten, so it can never be shown as live again
 * before the server sends a new one.
 */
import { reasonOf, type LiveRequest, type LiveStatus, type LiveSubscription, type MediaServer } from '@stagelink/core';
import { freshnessOfLive, type Freshness } from './freshness.js';

/** How long a written value stands for the value while the stream has not sent it back. */
const PENDING_MS = 1000;

export class LiveValue<T> {
  readonly #subscription: LiveSubscription | undefined;
  #value: T | undefined;
  /** The last value written from here, until the stream sends it back (or PENDING_MS passed). */
  #pending: { value: T; at: number } | undefined;
  #status: LiveStatus = 'connecting';
  #problem: string | undefined;

  /**
   * `request` is built here, where a name the live stream cannot address (a transport named `Stage (L)`) becomes
   * this value's problem rather than an error thrown at whoever watches the show.
   */
  constructor(
    server: MediaServer,
    request: () => LiveRequest,
    private readonly read: (value: unknown) => T | undefined,
    private readonly onChange: (value: T | undefined) => void,
    private readonly linkWasUp: () => boolean,
  ) {
    try {
      this.#subscription = server.live.subscribe(request(), ({ value }) => this.#onValue(value), {
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
    // Never watched (its name cannot be written on the stream): not live, whatever the link does.
    if (!this.#subscription) return 'stale';
    if (this.#problem !== undefined) return this.#status === 'online' ? 'stale' : freshnessOfLive(this.#status, false, this.linkWasUp());
    return freshnessOfLive(this.#status, this.#value !== undefined, this.linkWasUp());
  }

  /**
   * What the value is about to be: the value last written from here while the stream has not sent it back yet (for a
   * second at most), else the live value. Steps from a dial turned quickly start here, so no turn is lost.
   */
  get target(): T | undefined {
    const live = this.value;
    if (live === undefined) return undefined;
    return this.#pending && Date.now() - this.#pending.at < PENDING_MS ? this.#pending.value : live;
  }

  /** Why the server refused the value (a machine name it does not know), if it did. */
  get problem(): string | undefined {
    return this.#problem;
  }

  /** Writes through the stream (volume, brightness): rejects while the stream is down, so nothing lands late. */
  async set(value: T): Promise<void> {
    if (!this.#subscription) return Promise.reject(new Error(this.#problem ?? 'This value is not watched.'));
    this.#pending = { value, at: Date.now() };
    try {
      await this.#subscription.set(value);
    } catch (error) {
      this.#pending = undefined;
      throw error;
    }
  }

  close(): void {
    this.#subscription?.close();
  }

  #onValue(raw: unknown): void {
    const value = this.read(raw);
    if (value === undefined) return;
    this.#value = value;
    this.#problem = undefined;
    if (this.#pending?.value === value) this.#pending = undefined;
    this.onChange(value);
  }

  #onStatus(status: LiveStatus): void {
    this.#status = status;
    if (status !== 'online') this.#forget();
    else this.onChange(this.value);
  }

  #forget(): void {
    this.#value = undefined;
    this.#pending = undefined;
    this.onChange(undefined);
  }
}

export const asNumber = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
export const asBoolean = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
