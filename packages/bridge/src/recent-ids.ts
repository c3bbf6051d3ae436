/**
 * Command ids seen lately and what each answered: a command redelivered with the same id gets the first one's
 * result and never runs again. Bounded: past `limit` ids the oldest is forgotten.
 */
export class RecentIds<T> {
  readonly #seen = new Map<string, T>();

  constructor(readonly limit: number = 10_000) {}

  get(id: string): T | undefined {
    return this.#seen.get(id);
  }

  remember(id: string, value: T): void {
    this.#seen.delete(id);
    this.#seen.set(id, value);
    while (this.#seen.size > this.limit) {
      const oldest = this.#seen.keys().next().value;
      if (oldest === undefined) break;
      this.#seen.delete(oldest);
    }
  }

  get size(): number {
    return this.#seen.size;
  }
}
