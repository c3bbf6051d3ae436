import { AbortedError, ClosedError, ConnectionError, isUnreachable, reasonOf, type RequestContext } from '../errors.js';

/** Since when and why the server has not been answering. */
export interface LinkDown {
  since: Date;
  reason: string;
  /** The failure that took the link down: a refusal while it lasts names it as its cause. */
  error: Error;
}

/**
 * What the client knows of its link to the server, from the answers it got: down from the first call that got
 * nothing back (refused, unreachable, no answer in time) until any call gets an answer again, refusals included.
 * While the link is down, a cue sent with `failFast` first asks the server once, briefly (one question shared by
 * the cues waiting for it): when the server answers, the cue goes out; when not, it is refused without being
 * sent, at once rather than after a full timeout, since a cue that lands seconds late is worse than one that fails.
 */
export class LinkWatch {
  #down: LinkDown | undefined;
  #probing: Promise<void> | undefined;

  constructor(private readonly probe: () => Promise<unknown>) {}

  /** Undefined while the server answers (or before it was ever asked). */
  get down(): LinkDown | undefined {
    return this.#down;
  }

  /**
   * Records how a call ended: any answer means up; nothing back means down. A call the caller aborted (the Stream
   * Deck aborts its polls on a page change) or that the client's closing stopped says nothing of the server.
   */
  observe(outcome: unknown): void {
    if (outcome instanceof AbortedError || outcome instanceof ClosedError) return;
    if (outcome === undefined || !isUnreachable(outcome)) this.#down = undefined;
    else this.#down ??= { since: new Date(), reason: reasonOf(outcome), error: outcome };
  }

  /** Resolves when the cue may go; throws, without sending, while the server still does not answer. */
  async clearForCue(context: RequestContext): Promise<void> {
    if (!this.#down) return;
    await this.#probeOnce();
    const down = this.#down;
    if (!down) return;
    throw new ConnectionError(
      `${context.method} ${context.url} was not sent: the server has not answered since ${down.since.toLocaleTimeString()} (${down.reason}). A cue is never held back to land late: send it again once the server answers.`,
      context,
      { cause: down.error, mayHaveReachedServer: false },
    );
  }

  #probeOnce(): Promise<void> {
    if (this.#probing) return this.#probing;
    this.#probing = this.probe()
      .then(
        () => this.observe(undefined),
        (error: unknown) => this.observe(error),
      )
      .finally(() => (this.#probing = undefined));
    return this.#probing;
  }
}
