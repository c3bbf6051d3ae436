import type { Transport } from './types.js';

/**
 * How old a reading of the transports may be to stand for their state just before a cue. Front ends that show a
 * transport's state read it every few seconds (the Stream Deck every 2 s); another controller moving the
 * transport within this window is what this bound leaves open.
 */
export const BEFORE_CUE_MAX_AGE_MS = 3000;

/** The transports as this client knew them when a cue went out; `transports` undefined when it did not. */
export interface TransportsBefore {
  transports: readonly Transport[] | undefined;
  /** How many requests that may move a transport this client had sent by then. */
  moves: number;
}

/**
 * What this client last read of the transports, trusted only while nothing it sent since may have moved them: the
 * state before a cue, known without a read before each cue. Such a read would double what a cue costs, and on a
 * director that answers late it would hold the cue back by a whole answer. A reading counts when it started and
 * ended with no request of this client in flight that may move a transport, none sent during it, and is at most
 * BEFORE_CUE_MAX_AGE_MS old.
 */
export class TransportMemory {
  #moves = 0;
  #moving = 0;
  #seen: { transports: readonly Transport[]; at: number; moves: number } | undefined;

  /** A read of the transports starts; give its answer to the returned function. */
  reading(): (transports: readonly Transport[]) => void {
    const moves = this.#moves;
    const quiet = this.#moving === 0;
    const at = performance.now();
    return (transports) => {
      if (quiet && this.#moving === 0 && moves === this.#moves) this.#seen = { transports, at, moves };
    };
  }

  /** A request that may move a transport goes out; call the returned function once it has settled. */
  moving(): () => void {
    this.#moves++;
    this.#moving++;
    let settled = false;
    return () => {
      if (settled) return;
      settled = true;
      this.#moving--;
    };
  }

  /** The transports as they are now, as far as this client can tell without asking. */
  before(): TransportsBefore {
    const seen = this.#seen;
    const current = seen !== undefined && seen.moves === this.#moves && this.#moving === 0 && performance.now() - seen.at <= BEFORE_CUE_MAX_AGE_MS;
    return { transports: current ? seen.transports : undefined, moves: this.#moves };
  }

  /** How many requests that may move a transport went out since `before` was taken. */
  movesSince(before: TransportsBefore): number {
    return this.#moves - before.moves;
  }
}
