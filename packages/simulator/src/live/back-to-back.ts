/**
 * Designer's rule for client frames that come back to back (`backToBackMs`): a frame that arrives less than the
 * window after the socket's previous frame, while the server has not answered that frame, is refused with
 * `{"error": "Invalid JSON"}` and lost. A subscribe or unsubscribe is answered by the `subscriptions` list (or an
 * error); a `set` has no answer, so a frame right behind a `set` is always refused. WebSocket pings are not frames.
 *
 * An answer counts from the next turn of the event loop, once it has left: frames a client wrote in one burst
 * arrive in one read and are handled in one turn, so an answer to the first, made while the burst is read, is
 * not "in between" for the others.
 */
export class BackToBack {
  /** When the previous client frame arrived (performance.now()); undefined before the first. */
  #previousAt: number | undefined;
  /** Whether an answer has left since the previous frame arrived. */
  #answered = false;
  #leaving: NodeJS.Immediate | undefined;

  constructor(
    private readonly windowMs: () => number,
    private readonly now: () => number,
  ) {}

  /** Takes one client frame: whether it is handled (true) or refused as back to back (false). */
  accepts(): boolean {
    const now = this.now();
    const window = this.windowMs();
    const refused = window > 0 && this.#previousAt !== undefined && now - this.#previousAt < window && !this.#answered;
    this.#previousAt = now;
    this.#answered = false;
    this.#cancelLeaving();
    return !refused;
  }

  /** An answer (a list or an error) went out: from the next turn, the previous frame counts as answered. */
  answered(): void {
    if (this.#leaving) return;
    this.#leaving = setImmediate(() => {
      this.#leaving = undefined;
      this.#answered = true;
    });
  }

  dispose(): void {
    this.#cancelLeaving();
  }

  #cancelLeaving(): void {
    if (this.#leaving) clearImmediate(this.#leaving);
    this.#leaving = undefined;
  }
}
