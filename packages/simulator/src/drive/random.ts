/** A deterministic source of numbers in [0, 1): the same seed always builds the same drive. */
export type Random = () => number;

/** mulberry32: tiny and good enough for plausible fixtures; not for anything secret. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
