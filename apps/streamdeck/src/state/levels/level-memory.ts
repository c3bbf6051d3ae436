/**
 * Where a push brings a muted or blacked-out level back to, kept per server, transport and property for as long
 * as the plugin runs: a dial that leaves the screen (the operator turns to another page) and comes back, or a
 * second dial on the same level, still knows it.
 */
import type { LevelProperty } from '../../render/level-feedback.js';

/** The level a push at 0 goes back to; undefined when there is none. */
export interface ReturnLevel {
  value: number | undefined;
}

export class LevelMemory {
  readonly #levels = new Map<string, ReturnLevel>();

  of(origin: string, transport: string, property: LevelProperty): ReturnLevel {
    const key = JSON.stringify([origin, transport, property]);
    let level = this.#levels.get(key);
    if (!level) {
      level = { value: undefined };
      this.#levels.set(key, level);
    }
    return level;
  }
}
