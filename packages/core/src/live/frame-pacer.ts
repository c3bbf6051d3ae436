/**
 * Shipping directors drop a live-update frame that arrives right behind the previous one (they answer
 * `{"error": "Invalid JSON"}` and lose it). Every frame a client sends therefore waits until the server answered
 * the previous one, or until this long after it: sets, which get no answer, are spaced by it.
 */
export const FRAME_GAP_MS = 40;

/**
 * When the next frame of one socket may go. It knows only times and answers, not what the frames hold: the
 * registry decides what goes next, this decides when.
 */
export class FramePacer {
  #lastSentAt = -Infinity;
  /** The last frame sent expects an answer (a subscribe or unsubscribe) and got it. */
  #answered = true;
  #expectsAnswer = false;
  #wake: NodeJS.Timeout | undefined;

  constructor(
    private readonly now: () => number,
    private readonly gapMs = FRAME_GAP_MS,
  ) {}

  /** Milliseconds until a frame may go; 0 when one may go now. */
  get waitMs(): number {
    return this.#answered ? 0 : Math.max(0, this.#lastSentAt + this.gapMs - this.now());
  }

  /** A frame went out; `expectsAnswer` when the server answers it (a set gets none). */
  sent(expectsAnswer: boolean): void {
    this.#lastSentAt = this.now();
    this.#answered = false;
    this.#expectsAnswer = expectsAnswer;
  }

  /** The server answered: the frame in flight, if it expected an answer, is done with. */
  answered(): void {
    if (this.#expectsAnswer) this.#answered = true;
  }

  /** Calls `next` once, when a frame may go; a wake already waiting is kept. */
  wakeWhenClear(next: () => void): void {
    if (this.#wake) return;
    this.#wake = setTimeout(() => {
      this.#wake = undefined;
      next();
    }, this.waitMs);
  }

  /** A new socket, or none: nothing was sent on it yet. */
  reset(): void {
    clearTimeout(this.#wake);
    this.#wake = undefined;
    this.#lastSentAt = -Infinity;
    this.#answered = true;
    this.#expectsAnswer = false;
  }
}
