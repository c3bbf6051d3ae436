/**
 * Decides which frames of one key reach the Stream Deck app: the newest wins, an identical frame is not sent
 * again, at most one frame per `minIntervalMs` (4 a second by default), nothing while the key is hidden, and a
 * full repaint whenever it appears. A frame is any string: an SVG image, or touch-strip feedback as JSON.
 */

export interface PresenterClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemClock: PresenterClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export const DEFAULT_MIN_FRAME_INTERVAL_MS = 250;

export class FramePresenter {
  #desired: string | undefined;
  #lastSent: string | undefined;
  #lastSentAt = -Infinity;
  #visible = false;
  /** The next frame goes out even if it equals the last one: the app may show something else now. */
  #repaint = false;
  #timer: unknown;
  #disposed = false;

  constructor(
    private readonly send: (frame: string) => void,
    private readonly minIntervalMs = DEFAULT_MIN_FRAME_INTERVAL_MS,
    private readonly clock: PresenterClock = systemClock,
  ) {}

  /** The frame the key should show now. */
  show(frame: string): void {
    if (this.#disposed) return;
    this.#desired = frame;
    this.#schedule();
  }

  /** The key is on screen: repaint it (the app may show a default image), then keep it current. */
  appear(): void {
    if (this.#disposed) return;
    this.#visible = true;
    this.#repaint = true;
    this.#schedule();
  }

  /** The key left the screen: it gets no frames until it appears again. */
  disappear(): void {
    this.#visible = false;
    this.#cancel();
  }

  dispose(): void {
    this.#disposed = true;
    this.disappear();
  }

  #schedule(): void {
    if (!this.#visible || this.#desired === undefined || this.#timer !== undefined) return;
    if (!this.#repaint && this.#desired === this.#lastSent) return;
    const wait = this.#lastSentAt + this.minIntervalMs - this.clock.now();
    if (wait <= 0) {
      this.#flush();
      return;
    }
    this.#timer = this.clock.setTimeout(() => {
      this.#timer = undefined;
      this.#flush();
    }, wait);
  }

  #flush(): void {
    const frame = this.#desired;
    if (!this.#visible || frame === undefined) return;
    if (!this.#repaint && frame === this.#lastSent) return;
    this.#repaint = false;
    this.#lastSent = frame;
    this.#lastSentAt = this.clock.now();
    this.send(frame);
  }

  #cancel(): void {
    if (this.#timer === undefined) return;
    this.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
