/**
 * Writes a transport's volume or brightness through the live stream (`set` on a subscription to the property),
 * as directors' own clients turn them smoothly. There is no acknowledgement: a write has landed when the
 * server sends the value back. The writer says `false` (and the dial sends it over REST instead) whenever the
 * live path is not known to work: before the first value has come (the server may not offer the property,
 * as for a multitransport), while the stream is down or core reports the subscription stale (its values stopped,
 * so an echo would never come), or after a property error. A server that once lets a
 * write go unanswered is not written through the stream again: every turn would wait for nothing.
 */
import type { LiveRequest, LiveStatus, LiveSubscription, MediaServer } from '@stagelink/core';

/** Servers store these as 32-bit floats: 0.95 comes back as 0.949999988079071. */
const ECHO_TOLERANCE = 1e-6;
const DEFAULT_ECHO_TIMEOUT_MS = 1000;

interface PendingEcho {
  value: number;
  settle(landed: boolean): void;
}

export class LiveLevelWriter {
  readonly #subscription: LiveSubscription;
  readonly #pending = new Set<PendingEcho>();
  /** The last value the server sent; undefined until one came, and again once the path failed. */
  #latest: number | undefined;
  #closed = false;
  #unanswered = false;

  constructor(
    server: Pick<MediaServer, 'live'>,
    request: LiveRequest,
    private readonly echoTimeoutMs = DEFAULT_ECHO_TIMEOUT_MS,
  ) {
    this.#subscription = server.live.subscribe(request, ({ value }) => this.#onValue(value), {
      // `offline` and `stale` alike: no echo can be counted on until the next value shows the path works again.
      onStatus: (status: LiveStatus) => {
        if (status !== 'online') this.#fail();
      },
      onError: () => this.#fail(),
    });
  }

  /** True while writes go through the stream: the server has sent the property's value. */
  get offered(): boolean {
    return this.#latest !== undefined && !this.#closed && !this.#unanswered;
  }

  /** Resolves true once the server has the value, false when the caller must write it another way. */
  write(value: number): Promise<boolean> {
    if (!this.offered) return Promise.resolve(false);
    // The server sends a value only when it changes: writing the value it has needs no echo.
    if (sameLevel(this.#latest, value)) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.#unanswered = true;
        echo.settle(false);
      }, this.echoTimeoutMs);
      const echo: PendingEcho = {
        value,
        settle: (landed) => {
          if (!this.#pending.delete(echo)) return;
          clearTimeout(timer);
          resolve(landed);
        },
      };
      this.#pending.add(echo);
      this.#subscription.set(value).catch(() => echo.settle(false));
    });
  }

  close(): void {
    this.#closed = true;
    this.#fail();
    this.#subscription.close();
  }

  #onValue(value: unknown): void {
    if (this.#closed || typeof value !== 'number' || !Number.isFinite(value)) return;
    this.#latest = value;
    for (const echo of [...this.#pending]) if (sameLevel(echo.value, value)) echo.settle(true);
  }

  #fail(): void {
    this.#latest = undefined;
    for (const echo of [...this.#pending]) echo.settle(false);
  }
}

function sameLevel(a: number | undefined, b: number): boolean {
  return a !== undefined && Math.abs(a - b) <= ECHO_TOLERANCE;
}
