/**
 * Counts what would have ended a user's process: an uncaught exception or an unhandled rejection while code
 * under test runs in this process. The suite keeps running so that one crash does not hide the others.
 */
export class CrashGuard {
  readonly #seen: string[] = [];
  #installed = false;

  install(): void {
    if (this.#installed) return;
    this.#installed = true;
    process.on('uncaughtException', (error) => this.#record('uncaught exception', error));
    process.on('unhandledRejection', (reason) => this.#record('unhandled rejection', reason));
  }

  /** How many have been seen so far; subtract two readings to count those of one stretch. */
  get count(): number {
    return this.#seen.length;
  }

  since(count: number): string[] {
    return this.#seen.slice(count);
  }

  #record(kind: string, error: unknown): void {
    const text = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
    this.#seen.push(`${kind}: ${text.slice(0, 600)}`);
  }
}
