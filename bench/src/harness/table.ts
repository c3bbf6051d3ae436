import { times } from './format.js';
import type { BenchmarkResult, ResultRow } from './report.js';

const HEADER = ['benchmark', 'case', 'subject', 'baseline', 'ratio', 'target', 'result'];

/** The results as a Markdown table: readable in a terminal and pasted as is into RESULTS.md. */
export function resultsTable(results: readonly BenchmarkResult[]): string {
  const lines = results.flatMap((result) => result.rows.map((row) => cells(result.name, row)));
  return markdownTable([HEADER, ...lines]);
}

function cells(benchmark: string, row: ResultRow): string[] {
  return [benchmark, row.case, row.subject, row.baseline, ratioCell(row), row.target, resultCell(row)];
}

function ratioCell(row: ResultRow): string {
  if (row.ratio === undefined) return '-';
  const range = row.ratioRange ? ` (${times(row.ratioRange.min)}-${times(row.ratioRange.max)})` : '';
  return `${times(row.ratio)} ${row.ratioLabel ?? ''}${range}`.trim();
}

function resultCell(row: ResultRow): string {
  return row.note ? `${row.verdict}: ${row.note}` : row.verdict;
}

function markdownTable(rows: readonly string[][]): string {
  const widths = HEADER.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: readonly string[]): string => `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const rule = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  const [header = [], ...body] = rows;
  return [line(header), rule, ...body.map(line)].join('\n');
}
