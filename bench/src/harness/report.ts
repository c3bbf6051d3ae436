/** What a benchmark answers: rows comparing its subject with its baseline, and the facts behind them. */

/** `reported` rows have no target of their own (a reference baseline, a count); `not run` rows say why. */
export type Verdict = 'met' | 'missed' | 'reported' | 'not run';

export interface ResultRow {
  /** What this row compares, e.g. `sequential p50`. */
  case: string;
  /** Formatted with their unit, e.g. `212 µs`. */
  subject: string;
  baseline: string;
  /** How the ratio reads, e.g. `core / undici`; the ratio is of medians over rounds. */
  ratioLabel?: string;
  ratio?: number;
  /** The lowest and highest per-round ratio: how much the machine's noise moved it. */
  ratioRange?: { min: number; max: number };
  target: string;
  verdict: Verdict;
  /** What else to know: why a row did not run, or where the time went. */
  note?: string;
}

export interface BenchmarkResult {
  name: string;
  subject: string;
  baseline: string;
  rows: ResultRow[];
  /** Raw numbers (medians, per-round values, counts) for results/latest.json. */
  details: Record<string, unknown>;
  seconds: number;
}

/** What a benchmark's run answers; the runner adds its name and how long it took. */
export type BenchmarkOutcome = Pick<BenchmarkResult, 'rows' | 'details'>;

export interface Benchmark {
  /** What `pnpm bench <id>` runs alone, e.g. `cue-path`. */
  id: string;
  name: string;
  subject: string;
  baseline: string;
  /**
   * Runs the benchmark; `log` prints progress; `flags` are the command line's `--name value` pairs (the soak's
   * `--minutes`). Anything it starts it stops before it resolves.
   */
  run(log: (line: string) => void, flags: BenchmarkFlags): Promise<BenchmarkOutcome>;
}

export type BenchmarkFlags = Readonly<Record<string, string>>;

export function notRun(caseName: string, target: string, reason: string): ResultRow {
  return { case: caseName, subject: '-', baseline: '-', target, verdict: 'not run', note: reason };
}

/** `met` or `missed` for a value that must stay at or below `limit`. */
export function atMost(value: number, limit: number): Verdict {
  return value <= limit ? 'met' : 'missed';
}

/** `met` or `missed` for a value that must reach at least `floor`. */
export function atLeast(value: number, floor: number): Verdict {
  return value >= floor ? 'met' : 'missed';
}
