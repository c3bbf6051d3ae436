/**
 * The counts of one area of the suite. Inputs tried and their outcomes (a correct result or a clear error)
 * are the good news; crashes, silent losses, leaked sockets, stale values shown as live, resent cues and
 * findings are failures: any of them makes the run exit non-zero.
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
  /** Live subscriptions shown `online` past the documented bound after their values stopped. */
  staleShownLive = 0;
  /** Cues that reached the server more often than they were sent. */
  resentCues = 0;
  readonly findings: string[] = [];
  /** Facts worth printing under the table (bounds used, measured growth), not failures. */
  readonly notes: string[] = [];
  #started = performance.now();
  durationMs = 0;

  /** The row's name; a lane of another dialect adds the dialect to it. */
  constructor(public area: string) {}

  /** A failure that is none of the counted kinds: an unclear error, a leak, a bypass. */
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
    return this.crashes > 0 || this.silentLosses > 0 || this.leakedSockets > 0 || this.staleShownLive > 0 || this.resentCues > 0 || this.findings.length > 0;
  }
}
