import { ConnectionError, isUnreachable, reasonOf, type RequestContext } from '../errors.js';

/** Since when and why the server has not been answering. */
export interface LinkDown {
  since: Date;
  reason: string;
}

/**
 * What the client knows of its link to the server, from the answers it got: down from the first call that got
 * nothing back (refused, unreachable, no answer in time) until any call gets an answer again, refusals included.
 * A cue sent with `failFast` while the link is down is not sent at all: a cue that lands seconds late is worse
 * than one that fails at once. Each such refusal asks the server once more in the background (one question at a
 * time), so the link comes back up by itself as soon as the server answers.
 */
export class LinkWatch {
  #down: LinkDown | undefined;
  #probing: Promise<void> | undefined;

  constructor(private readonly probe: () => Promise<unknown>) {}

  /** Undefined while the server answers (or before it was ever asked). */
  get down(): LinkDown | undefined {
    return this.#down;
  }

  /** Records how a call ended: any answer means up; nothing back means down. */
  observe(outcome: unknown): void {
    if (outcome === undefined || !isUnreachable(outcome)) this.#down = undefined;
    else this.#down ??= { since: new Date(), reason: reasonOf(outcome) };
  }

  /** Throws at once, without sending, while the link is known down; asks the server again meanwhile. */
  refuseWhileDown(context: RequestContext): void {
    const down = this.#down;
    if (!down) return;
    this.#probeOnce();
    throw new ConnectionError(
      `${context.method} ${context.url} was not sent: the server has not answered since ${down.since.toLocaleTimeString()} (${down.reason}). A cue is never held back to land late: send it again once the server answers.`,
      context,
      { mayHaveReachedServer: false },
    );
  }

  #probeOnce(): void {
    if (this.#probing) return;
    this.#probing = this.probe()
      .then(
        () => this.observe(undefined),
        (error: unknown) => this.observe(error),
      )
      .finally(() => (this.#probing = undefined));
  }
}
