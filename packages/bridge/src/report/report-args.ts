import { OptionError } from '../options.js';
import { parseTimeArg, type TimeArg } from './report-times.js';

export const REPORT_USAGE = `Usage: stagelink-report <file|dir> [--from <time|date>] [--to <time|date>] [-o report.html]

Draws a show log (written by stagelink-bridge --record, or core's ShowRecorder) as one HTML page that opens
with no network: FPS per machine with health, stale and offline spans, director moves and commands, and tables
of incidents and commands.

  <file|dir>             a show log file (show-YYYY-MM-DD.ndjson) or the folder the bridge records to
  --from <time|date>     start of the window: HH:MM[:SS] on the log's newest show day (before 06:00 is after
                         midnight of that day), a show day 2026-11-27 (from its 06:00), a date and time
                         2026-11-27T21:00, or a full time such as 2026-11-27T21:00:00+01:00 (default: the log's start)
  --to <time|date>       end of the window, the same way; a show day ends at 06:00 the next morning, so
                         --from 2026-11-27 --to 2026-11-28 is two show days (default: the log's end)
  -o, --output <file>    the page to write (default report.html)
  --help                 this text`;

export type ReportCommand = { kind: 'help' } | { kind: 'report'; log: string; from?: TimeArg; to?: TimeArg; output: string };

const VALUE_FLAGS = new Map([
  ['--from', 'from'],
  ['--to', 'to'],
  ['--output', 'output'],
  ['-o', 'output'],
]);

/** Reads the arguments; OptionError names the first one that cannot be used. Reads no file. */
export function parseReportArgs(argv: readonly string[]): ReportCommand {
  const values = new Map<string, string>();
  const positional: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    const match = /^(--?[a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (!match?.[1]) {
      positional.push(arg);
      continue;
    }
    const name = VALUE_FLAGS.get(match[1]);
    if (!name) throw new OptionError(`Unknown flag ${match[1]}.`);
    const value = match[2] ?? argv[++index];
    if (value === undefined || (match[2] === undefined && value.startsWith('-') && value.length > 1)) throw new OptionError(`${match[1]} needs a value.`);
    values.set(name, value);
  }
  if (positional.length === 0) throw new OptionError('Give the show log: a file written by --record, or its folder.');
  if (positional.length > 1) throw new OptionError(`One show log at a time (got ${positional.map((arg) => JSON.stringify(arg)).join(', ')}): give the folder to read every show day in it.`);
  const time = (flag: 'from' | 'to'): TimeArg | undefined => {
    const text = values.get(flag);
    if (text === undefined) return undefined;
    const parsed = parseTimeArg(text.trim());
    if (!parsed) throw new OptionError(`--${flag} is a time such as 21:00, 21:00:30, a show day such as 2026-11-27, or 2026-11-27T21:00[:00+01:00] (got ${JSON.stringify(text)}).`);
    return parsed;
  };
  const from = time('from');
  const to = time('to');
  const output = values.get('output') ?? 'report.html';
  if (output.trim() === '') throw new OptionError('-o needs a file name.');
  return { kind: 'report', log: positional[0] as string, ...(from ? { from } : {}), ...(to ? { to } : {}), output };
}
