import { SeededRandom } from '@stagelink/simulator';

/**
 * The simulator's seeded generator with what input generation needs on top: the same seed gives the same
 * inputs in the same order, so every failure the suite reports can be replayed with `--seed`.
 */
export class Random extends SeededRandom {
  constructor(readonly seed: number) {
    super(seed);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Random.pick needs at least one item.');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A child generator for one part of the run, so adding inputs to one area does not shift the others. */
  fork(label: string): Random {
    let hash = this.seed >>> 0;
    for (const char of label) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
    return new Random(hash);
  }
}
