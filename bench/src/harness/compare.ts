import { median } from './stats.js';

/** One statistic (say p50) of a subject and a baseline, one value per round of the same run. */
export interface RoundComparison {
  subject: number;
  baseline: number;
  /** Median of the subject's rounds over median of the baseline's. */
  ratio: number;
  /** Lowest and highest ratio of the two within one round. */
  ratioRange: { min: number; max: number };
}

export function compareRounds(subject: readonly number[], baseline: readonly number[]): RoundComparison {
  const perRound = subject.map((value, round) => value / (baseline[round] ?? Number.NaN));
  const subjectMedian = median(subject);
  const baselineMedian = median(baseline);
  return {
    subject: subjectMedian,
    baseline: baselineMedian,
    ratio: subjectMedian / baselineMedian,
    ratioRange: { min: Math.min(...perRound), max: Math.max(...perRound) },
  };
}
