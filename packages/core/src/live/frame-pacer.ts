/**
 * Shipping directors drop a live-update frame that arrives right behind the previous one (they answer
 * `{"error": "Invalid JSON"}` and lose it). Every frame a client sends therefore waits until the server answered
 * the previous one, or until this long after it: sets, which get no answer, are spaced by it.
 */
export const FRAME_GAP_MS = 40;

/** The longest pause before a frame goes after the server lost the ones before it. */
export const RESEND_GAP_CAP_MS = 1000;

/**
 * The pause after the `drops`-th frame in a row the server lost ("Invalid JSON"): the frame gap, doubled with each
 * loss, up to a second. The answer names no frame, and a server that cannot read a frame loses it every time: a
 * client that resends at once loops as fast as the socket goes.
 */
export function resendGapMs(drops: number, gapMs = FRAME_GAP_MS): number {
  return Math.min(RESEND_GAP_CAP_MS, gapMs * 2 ** Math.max(0, drops - 1));
}

/**
 * When the next frame of one socket may go. It knows only times and answers, not what the frames hold: the
 * registry decides what goes next, this decides when.
 */
export class FramePacer {
  #lastSentAt = -Infinity;
  /** Every frame sent was answered: the next needs no gap. */
  #answered = true;
  /** Frames the server lost in a row ("Invalid JSON"), and until when the next one waits because of it. */
  #drops = 0;
  #heldUntil = -Infinity;
  #wake: NodeJS.Timeout | undefined;

  constructor(
    private readonly now: () => number,
    private readonly gapMs = FRAME_GAP_MS,
  ) {}

  /** Milliseconds until a frame may go; 0 when one may go now. */
  get waitMs(): number {
    const now = this.now();
    const held = Math.max(0, this.#heldUntil - now);
    return Math.max(held, this.#answered ? 0 : this.#lastSentAt + this.gapMs - now);
  }

  /** Frames the server lost in a row, since it last answered one. */
  get drops(): number {
    return this.#drops;
  }

  /** A frame went out. */
  sent(): void {
    this.#lastSentAt = this.now();
    this.#answered = false;
  }

  /**
   * The server answered a frame. Only when that was the last one sent (`everyFrameAnswered`) may the next go at
   * once: an answer a busy director sends late belongs to an earlier frame, and a set is never answered.
   */
  answered(everyFrameAnswered: boolean): void {
    this.#drops = 0;
    if (everyFrameAnswered) this.#answered = true;
  }

  /** The server lost a frame ("Invalid JSON"): the next waits a pause that grows with each loss in a row. */
  dropped(): void {
    this.#drops++;
    this.#heldUntil = this.now() + resendGapMs(this.#drops, this.gapMs);
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
    this.#drops = 0;
    this.#heldUntil = -Infinity;
  }
}
