import type { Tally } from './tally.js';

const COLUMNS = ['area', 'inputs tried', 'ok', 'clear errors', 'crashes', 'silent losses', 'leaked sockets', 'stale as live', 'resent cues', 'findings', 'time'] as const;

function row(tally: Tally): string[] {
  return [
    tally.area,
    String(tally.inputs),
    String(tally.ok),
    String(tally.errors),
    String(tally.crashes),
    String(tally.silentLosses),
    String(tally.leakedSockets),
    String(tally.staleShownLive),
    String(tally.resentCues),
    String(tally.findings.length),
    `${(tally.durationMs / 1000).toFixed(1)} s`,
  ];
}

function totals(tallies: readonly Tally[], totalMs: number): string[] {
  const sum = (pick: (tally: Tally) => number): string => String(tallies.reduce((total, tally) => total + pick(tally), 0));
  return [
    'total',
    sum((t) => t.inputs),
    sum((t) => t.ok),
    sum((t) => t.errors),
    sum((t) => t.crashes),
    sum((t) => t.silentLosses),
    sum((t) => t.leakedSockets),
    sum((t) => t.staleShownLive),
    sum((t) => t.resentCues),
    sum((t) => t.findings.length),
    `${(totalMs / 1000).toFixed(1)} s`,
  ];
}

const FOOTNOTE =
  'ok and clear errors count inputs with an answer of their own; the other inputs (events, scans) pass when the process stays up and nothing is found.';

/** A plain-text table (markdown-compatible) with one row per area and a total, then findings and notes. */
export function summaryTable(tallies: readonly Tally[], totalMs: number): string {
  const rows = [[...COLUMNS], ...tallies.map(row), totals(tallies, totalMs)];
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (column === 0 ? `:${'-'.repeat(width + 1)}` : `${'-'.repeat(width + 1)}:`)).join('|')}|`;
  const [header, ...body] = rows;
  const table = [line(header ?? []), rule, ...body.map(line)];
  return [...table, '', FOOTNOTE, ...details(tallies)].join('\n');
}

function details(tallies: readonly Tally[]): string[] {
  const out: string[] = [];
  for (const tally of tallies) {
    if (tally.findings.length === 0 && tally.notes.length === 0) continue;
    out.push('', `${tally.area}:`);
    for (const note of tally.notes) out.push(`  - ${note}`);
    const shown = tally.findings.slice(0, Number(process.env.HARDENING_EXAMPLES ?? 12));
    for (const finding of shown) out.push(`  ! ${finding}`);
    if (tally.findings.length > shown.length) out.push(`  ! ... and ${tally.findings.length - shown.length} more`);
  }
  return out;
}
