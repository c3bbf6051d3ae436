/** A frame sent on the live socket: a subscribe or unsubscribe (always answered) or a set (answered only when refused or lost). */
export type AnswerableFrame = { kind: 'operation' } | { kind: 'set' };

/**
 * The frames of one socket whose answer may still come, oldest first. A director answers frames in the order they
 * came: each subscribe or unsubscribe once (its list, an error, or "Invalid JSON" when it lost it), a set only when
 * it refuses or loses it. A busy director answers later than the next frame goes, so an answer is matched to its
 * frame by that order, never taken for the answer to the frame that went last.
 *
 * A frame whose answer never came within `forgetAfterMs` is forgotten, so one answer a server never sends cannot
 * shift every later answer onto the wrong frame.
 */
export class UnansweredFrames<Frame extends AnswerableFrame> {
  #frames: { frame: Frame; sentAt: number }[] = [];

  constructor(
    private readonly now: () => number,
    private readonly forgetAfterMs: number,
  ) {}

  /** Every frame sent has had its answer: the next may go at once. A set is answered only by a later list. */
  get allAnswered(): boolean {
    this.#forgetOld();
    return this.#frames.length === 0;
  }

  sent(frame: Frame): void {
    this.#forgetOld();
    this.#frames.push({ frame, sentAt: this.now() });
  }

  /** A `subscriptions` list or a refused subscribe: the oldest operation's answer. Sets before it were taken without a word. */
  answerOperation(): Frame | undefined {
    this.#forgetOld();
    return this.#answerThrough(this.#frames.findIndex(({ frame }) => frame.kind === 'operation'));
  }

  /** A refused write: the oldest set's answer, and what went before it was answered already. */
  answerSet(): Frame | undefined {
    this.#forgetOld();
    return this.#answerThrough(this.#frames.findIndex(({ frame }) => frame.kind === 'set'));
  }

  /**
   * "Invalid JSON": the oldest frame was lost. Where sets lead, the last of them: a set is answered only when it is
   * lost, and of sets sent one behind the other, each but the first went right behind one the server never answers.
   * A set sent while a subscribe or unsubscribe was still unanswered went in while the director was busy with it:
   * that set is what it lost, said at once, while the operation's own answer is still to come.
   */
  answerLost(): Frame | undefined {
    this.#forgetOld();
    if (this.#frames[0]?.frame.kind === 'operation' && this.#frames[1]?.frame.kind === 'set') return this.#frames.splice(1, 1)[0]?.frame;
    const leadingSets = this.#frames.findIndex(({ frame }) => frame.kind !== 'set');
    return this.#answerThrough(leadingSets === -1 ? this.#frames.length - 1 : Math.max(0, leadingSets - 1));
  }

  /** The frame at `index` is answered, and every frame before it was answered already: -1 names none. */
  #answerThrough(index: number): Frame | undefined {
    if (index < 0) return undefined;
    return this.#frames.splice(0, index + 1).at(-1)?.frame;
  }

  clear(): void {
    this.#frames = [];
  }

  #forgetOld(): void {
    const oldest = this.now() - this.forgetAfterMs;
    while ((this.#frames[0]?.sentAt ?? Infinity) < oldest) this.#frames.shift();
  }
}
