/**
 * The requests that reached the machines, counted by method and path as they arrive: before any latency or late
 * answer, and whether or not their client still waits for the answer. The request log has a line only once a
 * request is answered, so a cue whose client gave up at its deadline shows here first: a test that a cue is never
 * resent counts here.
 */
export class RequestArrivals {
  readonly #counts = new Map<string, number>();
  readonly #byMachine = new Map<string, number>();

  /**
   * Requests that arrived for `method` and `path` (the query left out) since the start or the last reset; with
   * `machine` (a hostname, any case), only those that reached that machine or its management controller.
   */
  count(method: string, path: string, machine?: string): number {
    if (machine === undefined) return this.#counts.get(`${method} ${path}`) ?? 0;
    return this.#byMachine.get(`${machine.toLowerCase()} ${method} ${path}`) ?? 0;
  }

  note(method: string, path: string, machine?: string): void {
    const key = `${method} ${path}`;
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    if (machine === undefined) return;
    const at = `${machine.toLowerCase()} ${key}`;
    this.#byMachine.set(at, (this.#byMachine.get(at) ?? 0) + 1);
  }

  clear(): void {
    this.#counts.clear();
    this.#byMachine.clear();
  }
}
