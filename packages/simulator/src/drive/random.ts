import { SeededRandom } from '../state/random.js';

/** A deterministic source of numbers in [0, 1): the same seed always builds the same drive. */
export type Random = () => number;

/** The session model's seeded PRNG, as a plain function. */
export function seededRandom(seed: number): Random {
  const source = new SeededRandom(seed);
  return () => source.next();
}

export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function pick<T>(random: Random, items: readonly [T, ...T[]]): T {
  return items[Math.floor(random() * items.length)] ?? items[0];
}

export function randomHex(random: Random, length: number): string {
  let hex = '';
  while (hex.length < length) hex += Math.floor(random() * 16).toString(16);
  return hex;
}
