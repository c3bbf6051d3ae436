import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { InvalidInputError } from '../errors.js';
import { SHOW_LOG_VERSION, type ShowLogRecord } from './records.js';

export interface ReadShowLogOptions {
  /** Only records at or after this instant. */
  from?: Date;
  /** Only records before this instant. */
  to?: Date;
  /** A line that is not a record (a crash's torn last line, an editor's stray text): skipped, never the file. */
  onSkipped?: (skipped: { file: string; line: number; text: string }) => void;
}

/**
 * The records of a show log file, or of every `.ndjson` file in a folder (in name order, so show days in date
 * order), oldest first as written. A line that does not parse is skipped and told to `onSkipped`; a file written
 * in a newer format than this reader knows is refused with what to do.
 */
export async function* readShowLog(path: string, options: ReadShowLogOptions = {}): AsyncGenerator<ShowLogRecord> {
  for (const file of await showLogFiles(path)) yield* readFile(file, options);
}

/** The files `readShowLog` reads for `path`, in the order it reads them: the file itself, or a folder's `.ndjson` files by name (show days in date order). */
export async function showLogFiles(path: string): Promise<string[]> {
  const found = await stat(path).catch(() => undefined);
  if (!found) throw new InvalidInputError(`No show log at ${path}: give a show log file or the folder the bridge's --record writes to.`);
  if (!found.isDirectory()) return [path];
  const files = (await readdir(path)).filter((name) => name.endsWith('.ndjson')).sort();
  if (files.length === 0) throw new InvalidInputError(`No show log files (*.ndjson) in ${path}.`);
  return files.map((name) => join(path, name));
}

async function* readFile(file: string, { from, to, onSkipped }: ReadShowLogOptions): AsyncGenerator<ShowLogRecord> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let number = 0;
  try {
    for await (const text of lines) {
      number++;
      if (text === '') continue;
      const record = parseRecord(text);
      if (!record) {
        onSkipped?.({ file, line: number, text });
        continue;
      }
      if (record.kind === 'log' && record.v > SHOW_LOG_VERSION) {
        throw new InvalidInputError(`${file} is a show log of format ${record.v}, newer than this stagelink reads (${SHOW_LOG_VERSION}): update stagelink.`);
      }
      const at = Date.parse(record.t);
      if ((from && at < from.getTime()) || (to && at >= to.getTime())) continue;
      yield record;
    }
  } finally {
    lines.close();
  }
}

function parseRecord(text: string): ShowLogRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { t, kind } = value as { t?: unknown; kind?: unknown };
  return typeof t === 'string' && typeof kind === 'string' && !Number.isNaN(Date.parse(t)) ? (value as ShowLogRecord) : undefined;
}
