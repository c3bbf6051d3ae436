import { join } from 'node:path';
import { reasonOf } from '../errors.js';
import { AppendOnlyFile } from './append-only-file.js';
import { SHOW_LOG_VERSION, type ClockRecord, type ShowLogEntry } from './records.js';
import { DAY_STARTS_AT_HOUR, localIso, showDayOf } from './show-day.js';

/** FPS is kept at most this often per machine: 4 a second, as the bridge publishes it. */
const FPS_EVERY_MS = 250;
/** A running clock is kept once a second; a change of status, track, section or play state at once. */
const CLOCK_EVERY_MS = 1000;
/** A file that could not be opened is tried again after this long, not at every entry. */
const REOPEN_AFTER_MS = 5000;

export interface ShowRecorderOptions {
  /** The folder the show days' files are written to; created when missing. */
  dir: string;
  /** Who writes, with its version: `stagelink-bridge 0.3.0`. */
  source: string;
  /** The session's name, as the writer knows it. */
  session?: string;
  /** The local hour a show day starts at (default 6: a show past midnight stays in its day's file). */
  dayStartsAtHour?: number;
  /** A file that could not be opened or written, once per different reason. The recorder goes on. */
  onError?(error: Error): void;
  /**
   * Entries reach the file: at the first one written, and again at the first after a failure `onError` reported
   * (the folder is back, the disk has room), so a writer can stop saying it cannot write. A failure after it is
   * reported again, even for the same reason.
   */
  onWriting?(): void;
  /** The time source; tests move one by hand. */
  now?(): Date;
}

/**
 * Writes the show log (`docs/show-log.md`): one newline-delimited JSON file per show day, `show-YYYY-MM-DD.ndjson`,
 * appended to, never rewritten, synced to disk at most once a second. A crash leaves at most a torn last line,
 * which a reader skips. Values that come faster than a report draws (FPS, a running clock) are thinned here, so
 * every writer's logs read the same.
 */
export class ShowRecorder {
  readonly #options: ShowRecorderOptions;
  readonly #keptAt = new Map<string, number>();
  readonly #lastClock = new Map<string, ClockRecord>();
  #file: Promise<AppendOnlyFile | undefined> | undefined;
  #day: string | undefined;
  #openFailedAt: number | undefined;
  #lastError: string | undefined;
  /** Entries reached the file since the last failure (or the start). */
  #writing = false;
  #closed = false;

  constructor(options: ShowRecorderOptions) {
    this.#options = options;
  }

  /**
   * Writes an entry, stamped with `at` (default: now), unless it is an FPS value or clock tick that comes too soon.
   * A command is stamped with the time it was taken, known only once its answer came: a late cue then stands at
   * the moment it was given. The entry goes to the file of the day it is written in. Answers whether it is kept
   * (false: thinned, or the recorder is closed), so a writer can count what it wrote.
   */
  record(entry: ShowLogEntry, at?: Date): boolean {
    if (this.#closed) return false;
    const now = this.#options.now?.() ?? new Date();
    const stamp = at ?? now;
    if (!this.#keeps(entry, stamp.getTime())) return false;
    const file = this.#fileFor(now);
    const line = JSON.stringify({ t: localIso(stamp), ...entry });
    void file.then((opened) => opened?.appendLine(line));
    return true;
  }

  /** Resolves once every entry recorded so far is written. */
  async flush(): Promise<void> {
    await (await this.#file)?.flush();
  }

  /** Writes what is pending, syncs and closes the file. Later entries are ignored. */
  async close(): Promise<void> {
    this.#closed = true;
    await (await this.#file)?.close();
  }

  /** FPS at most 4 a second per machine; a clock at most once a second unless something but its time changed. */
  #keeps(entry: ShowLogEntry, at: number): boolean {
    if (entry.kind === 'fps') return this.#due(`fps ${entry.machine}`, at, FPS_EVERY_MS);
    if (entry.kind !== 'clock') return true;
    const last = this.#lastClock.get(entry.transport);
    this.#lastClock.set(entry.transport, entry);
    const changed = !last || last.status !== entry.status || last.playing !== entry.playing || last.track !== entry.track || last.section !== entry.section;
    if (changed) {
      this.#keptAt.set(`clock ${entry.transport}`, at);
      return true;
    }
    return this.#due(`clock ${entry.transport}`, at, CLOCK_EVERY_MS);
  }

  #due(key: string, at: number, everyMs: number): boolean {
    const keptAt = this.#keptAt.get(key);
    if (keptAt !== undefined && at - keptAt < everyMs && at >= keptAt) return false;
    this.#keptAt.set(key, at);
    return true;
  }

  /** The file of the show day `now` falls in: the one open, or a new one when the day turned. */
  #fileFor(now: Date): Promise<AppendOnlyFile | undefined> {
    const day = showDayOf(now, this.#options.dayStartsAtHour ?? DAY_STARTS_AT_HOUR);
    const retrying = this.#openFailedAt !== undefined && now.getTime() - this.#openFailedAt >= REOPEN_AFTER_MS;
    if (day === this.#day && this.#file && !retrying) return this.#file;
    const previous = this.#file;
    this.#day = day;
    // Entries that come while this opening is under way wait for it: one opening, one log record.
    this.#openFailedAt = undefined;
    this.#file = (async () => {
      await (await previous)?.close();
      try {
        const file = await AppendOnlyFile.open(join(this.#options.dir, `show-${day}.ndjson`), {
          onError: (error) => this.#failed(error),
          onWritten: () => this.#written(),
        });
        const { source, session } = this.#options;
        file.appendLine(JSON.stringify({ t: localIso(now), kind: 'log', v: SHOW_LOG_VERSION, source, ...(session === undefined ? {} : { session }), day }));
        return file;
      } catch (error) {
        this.#failed(error as Error);
        this.#openFailedAt = now.getTime();
        return undefined;
      }
    })();
    return this.#file;
  }

  #written(): void {
    if (this.#writing) return;
    this.#writing = true;
    this.#lastError = undefined;
    this.#options.onWriting?.();
  }

  #failed(error: Error): void {
    this.#writing = false;
    const reason = reasonOf(error);
    if (reason === this.#lastError) return;
    this.#lastError = reason;
    this.#options.onError?.(error);
  }
}
