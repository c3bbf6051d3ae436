/**
 * Why a key shows SET UP or PROBLEM, in the plugin log. A 72 px key has room for the state word, not for the
 * sentence that says what to do, so the sentence goes here: once per reason, not on every poll that repeats it.
 */
import type { Logger } from '@stagelink/core';

export class ReasonLog {
  #last: string | undefined;

  constructor(
    private readonly logger: Logger,
    /** Which key the reasons are about, as the log names it: "Health key SESSION". */
    private readonly subject: () => string,
  ) {}

  tell(reason: string): void {
    if (reason === this.#last) return;
    this.#last = reason;
    this.logger.warn(`${this.subject()}: ${reason}`);
  }

  /** The key is fine again: the same reason, coming back, is worth telling again. */
  clear(): void {
    this.#last = undefined;
  }
}
