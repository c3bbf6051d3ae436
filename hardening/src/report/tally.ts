/**
 * The counts of one area of the suite. Inputs tried and their outcomes (a correct result or a clear error)
 * are the good news; crashes, silent losses, leaked sockets and findings are failures: any of them makes
 * the run exit non-zero.
 */
export class Tally {
  inputs = 0;
  /** Commands acknowledged or inputs that gave a correct result. */
  ok = 0;
  /** Inputs refused with a clear error (a stagelink error that says what failed). */
  errors = 0;
  crashes = 0;
  silentLosses = 0;
  leakedSockets = 0;
  readonly findings: string[] = [];
  /** Facts worth printing under the table (bounds used, measured growth), not failures. */
  readonly notes: string[] = [];
  #started = performance.now();
  durationMs = 0;

  constructor(readonly area: string) {}

  /** A failure that is neither a crash, a silent loss nor a leaked socket: an unclear error, a leak, a bypass. */
  finding(description: string): void {
    this.findings.push(description);
  }

  note(text: string): void {
    this.notes.push(text);
  }

  /** Checks a condition; records `description` as a finding when it does not hold. */
  expect(condition: boolean, description: string): boolean {
    if (!condition) this.finding(description);
    return condition;
  }

  finish(): this {
    this.durationMs = performance.now() - this.#started;
    return this;
  }

  get failed(): boolean {
    return this.crashes > 0 || this.silentLosses > 0 || this.leakedSockets > 0 || this.findings.length > 0;
  }
}
