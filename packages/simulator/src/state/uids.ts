import type { SeededRandom } from './random.js';

/** The largest uint64: seeded on purpose so tests can show a uid survives the round trip as a string. */
export const MAX_UINT64_UID = '18446744073709551615';

/**
 * Hands out uids the way the media server writes them: uint64 values as decimal strings. They are built with
 * BigInt and never pass through a JS number, which would lose digits above 2^53.
 */
export class UidSource {
  readonly #used = new Set<string>();

  constructor(private readonly random: SeededRandom) {}

  /** Claims a fixed uid of the seed data so no random uid collides with it. */
  reserve(uid: string): string {
    this.#used.add(uid);
    return uid;
  }

  /** A fresh random uint64; never 0, which the server reads as "none". */
  next(): string {
    for (;;) {
      const value = (BigInt(this.random.bits32()) << 32n) | BigInt(this.random.bits32());
      const uid = value.toString();
      if (value !== 0n && !this.#used.has(uid)) return this.reserve(uid);
    }
  }
}
