import { brief, isClearErrorText } from '../report/clear-error.js';
import type { Tally } from '../report/tally.js';
import type { Outcome } from './probe-client.js';

/** How many examples of one kind of finding are kept (the count is always complete). */
const EXAMPLES_PER_KIND = Number(process.env.HARDENING_EXAMPLES ?? 3);

/**
 * Counts one command's outcome: an ack, a clear error from a stagelink node, an unclear error (a finding), a
 * silent loss, or Node-RED unreachable (the caller checks for a crash). Returns false for the last.
 */
export function countOutcome(tally: Tally, outcome: Outcome, where: string, input: () => string): boolean {
  switch (outcome.kind) {
    case 'ack':
      tally.ok++;
      return true;
    case 'error':
      if (isClearNodeError(outcome)) tally.errors++;
      else example(tally, `unclear error from ${outcome.source ?? 'unknown'}`, `${where}: ${brief(outcome.message)} ← ${input()}`);
      return true;
    case 'silent':
      tally.silentLosses++;
      example(tally, 'silent loss', `${where}: no ack and no error within the limit ← ${input()}`);
      return true;
    case 'unreachable':
      return false;
  }
}

/** An error a stagelink node reported and explained, as a Catch node received it. */
export function isClearNodeError(outcome: Extract<Outcome, { kind: 'error' }>): boolean {
  return outcome.source?.startsWith('stagelink-') === true && isClearErrorText(outcome.message);
}

const shown = new WeakMap<Tally, Map<string, number>>();

/** Records a finding, but only the first few of each kind verbatim; the rest are counted under one line. */
export function example(tally: Tally, kind: string, detail: string): void {
  const counts = shown.get(tally) ?? new Map<string, number>();
  shown.set(tally, counts);
  const seen = (counts.get(kind) ?? 0) + 1;
  counts.set(kind, seen);
  if (kind === 'silent loss') {
    if (seen <= EXAMPLES_PER_KIND) tally.note(`${kind} #${seen}: ${detail}`);
    return;
  }
  if (seen <= EXAMPLES_PER_KIND) tally.finding(`${kind}: ${detail}`);
  else tally.finding(`${kind} (#${seen}, same kind as above)`);
}

/** A generated input, short enough for a finding line. */
export function describeInput(fields: unknown, index: number): string {
  let text: string;
  try {
    text = JSON.stringify(fields) ?? 'undefined';
  } catch {
    text = '(not JSON)';
  }
  return `input #${index} ${brief(text, 140)}`;
}
