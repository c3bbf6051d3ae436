/**
 * The last value seen of each thing an events node watches. The first reading of a thing is only noted (a node
 * that has just started has seen nothing change); a later reading that differs is a change.
 */
export class Changes<T> {
  readonly #last = new Map<string, T>();

  /** Whether `key` has a reading yet. */
  has(key: string): boolean {
    return this.#last.has(key);
  }

  /** Notes `value` for `key`; answers the value it replaces when this is a change, else undefined. */
  see(key: string, value: T): { previous: T } | undefined {
    const known = this.#last.has(key);
    const previous = this.#last.get(key) as T;
    this.#last.set(key, value);
    return known && previous !== value ? { previous } : undefined;
  }
}
