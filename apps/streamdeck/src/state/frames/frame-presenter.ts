/**
 * Decides which frames of one key reach the Stream Deck app: the newest wins, an identical frame is not sent
 * again, at most one frame per `minIntervalMs` (4 a second by default), nothing while the key is hidden, and a
 * full repaint whenever it appears. A frame is any string: an SVG image, or touch-strip feedback as JSON.
 */
import { Throttle } from '@stagelink/core';

export const DEFAULT_MIN_FRAME_INTERVAL_MS = 250;

export class FramePresenter {
  readonly #throttle: Throttle<string>;
  #desired: string | undefined;
  #lastSent: string | undefined;
  #visible = false;
  /** The next frame goes out even if it equals the last one: the app may show something else now. */
  #repaint = false;

  constructor(
    private readonly send: (frame: string) => void,
    minIntervalMs = DEFAULT_MIN_FRAME_INTERVAL_MS,
  ) {
    this.#throttle = new Throttle((frame) => this.#present(frame), minIntervalMs);
  }

  /** The frame the key should show now. */
  show(frame: string): void {
    this.#desired = frame;
    this.#offer();
  }

  /** The key is on screen: repaint it (the app may show a default image), then keep it current. */
  appear(): void {
    this.#visible = true;
    this.#repaint = true;
    this.#offer();
  }

  /** The key left the screen: it gets no frames until it appears again. */
  disappear(): void {
    this.#visible = false;
    this.#throttle.cancel();
  }

  dispose(): void {
    this.disappear();
    this.#throttle.close();
  }

  #offer(): void {
    if (!this.#visible || this.#desired === undefined) return;
    // Back to what the key already shows: whatever was waiting is no longer wanted.
    if (!this.#repaint && this.#desired === this.#lastSent) this.#throttle.cancel();
    else this.#throttle.push(this.#desired);
  }

  #present(frame: string): void {
    this.#repaint = false;
    this.#lastSent = frame;
    this.send(frame);
  }
}
