/**
 * Why a key shows SET UP or PROBLEM, in the plugin log. A 72 px key has room for the state word, not for the
 * sentence that says what to do, so the sentence goes here: once per reason, not on every poll that repeats it.
 */
import { logRoutine, type MaybeInfoLogger } from '../logging.js';

export class ReasonLog {
  #last: string | undefined;

  constructor(
    private readonly logger: MaybeInfoLogger,
    /** Which key the reasons are about, as the log names it: "Health key SESSION". */
    private readonly subject: () => string,
  ) {}

  /** `setUp`: the key is not set up yet (routine, logged at INFO), rather than failing (WARN). */
  tell(reason: string, setUp = false): void {
    if (reason === this.#last) return;
    this.#last = reason;
    const line = `${this.subject()}: ${reason}`;
    if (setUp) logRoutine(this.logger, line);
    else this.logger.warn(line);
  }

  /** The key is fine again: the same reason, coming back, is worth telling again. */
  clear(): void {
    this.#last = undefined;
  }
}
