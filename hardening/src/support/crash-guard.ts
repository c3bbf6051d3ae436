import { brief } from '../report/clear-error.js';
import { Tally } from '../report/tally.js';

/**
 * Counts what would have ended a user's process: an uncaught exception or an unhandled rejection while code
 * under test runs in this process. The suite keeps running so that one crash does not hide the others.
 */
export class CrashGuard {
  readonly #seen: string[] = [];
  /** Crashes before this index are in a tally or in `#between`. */
  #accounted = 0;
  /** Crashes seen while no area ran. */
  readonly #between: string[] = [];
  readonly #onException = (error: unknown): void => this.#record('uncaught exception', error);
  readonly #onRejection = (reason: unknown): void => this.#record('unhandled rejection', reason);
  #installed = false;

  install(): void {
    if (this.#installed) return;
    this.#installed = true;
    process.on('uncaughtException', this.#onException);
    process.on('unhandledRejection', this.#onRejection);
  }

  close(): void {
    process.off('uncaughtException', this.#onException);
    process.off('unhandledRejection', this.#onRejection);
    this.#installed = false;
  }

  /**
   * Runs one area and adds the crashes seen meanwhile to its first tally, so the table shows where each
   * happened and the run fails.
   */
  async during(area: string, run: () => Promise<Tally | Tally[]>): Promise<Tally[]> {
    this.#between.push(...this.#unaccounted());
    const result = await run();
    await settleRejections();
    const tallies = Array.isArray(result) ? result : [result];
    const crashes = this.#unaccounted();
    if (tallies[0]) charge(tallies[0], area, crashes);
    else this.#between.push(...crashes);
    return tallies;
  }

  /** A row for the crashes seen while no area ran (the shared runtime closing, say); undefined when none. */
  async outsideAreas(): Promise<Tally | undefined> {
    await settleRejections();
    this.#between.push(...this.#unaccounted());
    if (this.#between.length === 0) return undefined;
    const tally = new Tally('suite process: between areas');
    charge(tally, 'no area', this.#between);
    return tally.finish();
  }

  #unaccounted(): string[] {
    const crashes = this.#seen.slice(this.#accounted);
    this.#accounted = this.#seen.length;
    return crashes;
  }

  #record(kind: string, error: unknown): void {
    const text = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
    this.#seen.push(`${kind}: ${text.slice(0, 600)}`);
  }
}

function charge(tally: Tally, area: string, crashes: readonly string[]): void {
  tally.crashes += crashes.length;
  for (const crash of crashes) tally.finding(`in the suite's process during ${area}: ${brief(crash, 300)}`);
}

/** Node reports a promise rejected without a handler once the microtasks of its tick have run: let it. */
function settleRejections(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
