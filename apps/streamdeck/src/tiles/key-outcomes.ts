/**
 * What each key's latest cue did, while the key says so (LANDED LATE, OUTCOME UNKNOWN, NOT SENT): kept by key, not
 * by tile. A page flip disposes the key's tile while its cue may still be out; the answer then lands here, and the
 * key's next tile shows it when the key appears again within the outcome's time. Timed on a monotonic clock.
 */
import type { KeyOutcome } from '../render/cue-face.js';

/** How long a key says LANDED LATE, OUTCOME UNKNOWN or NOT SENT after its cue. */
export const OUTCOME_SHOWN_MS = 10_000;

export interface RecalledOutcome {
  outcome: KeyOutcome;
  /** How much longer the key shows it. */
  leftMs: number;
}

/** One key's outcome, as its tiles see it. */
export interface OutcomeSlot {
  /** The key's latest cue did `outcome`: kept for its time, and shown by the key's tile on screen now, if any. */
  remember(outcome: KeyOutcome): void;
  /** A new cue of the key: the previous one's outcome is no longer worth showing. */
  forget(): void;
  /** The outcome still to show, if any. */
  recall(): RecalledOutcome | undefined;
}

interface Kept {
  outcome: KeyOutcome;
  until: number;
}

export class KeyOutcomes {
  readonly #kept = new Map<string, Kept>();
  readonly #now: () => number;

  constructor(
    private readonly shownMs: number,
    /** Tells the tile on screen for `context` now (if any) to show `outcome` for `forMs`, or to stop showing one. */
    private readonly tell: (context: string, outcome: RecalledOutcome | undefined) => void,
    now?: () => number,
  ) {
    this.#now = now ?? (() => performance.now());
  }

  slot(context: string): OutcomeSlot {
    return {
      remember: (outcome) => {
        this.#prune();
        this.#kept.set(context, { outcome, until: this.#now() + this.shownMs });
        this.tell(context, { outcome, leftMs: this.shownMs });
      },
      forget: () => {
        if (this.#kept.delete(context)) this.tell(context, undefined);
      },
      recall: () => {
        const kept = this.#kept.get(context);
        if (!kept) return undefined;
        const leftMs = kept.until - this.#now();
        if (leftMs > 0) return { outcome: kept.outcome, leftMs };
        this.#kept.delete(context);
        return undefined;
      },
    };
  }

  /** Keys that never came back leave nothing behind once their outcome's time is over. */
  #prune(): void {
    const now = this.#now();
    for (const [context, kept] of this.#kept) if (kept.until <= now) this.#kept.delete(context);
  }
}
