import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Data reaches the disk (fsync) at most this often: a power cut loses at most this much of the log. */
export const SYNC_EVERY_MS = 1000;

/** What a file tells of its writes: a failed write, a sync or a close, and each batch of lines written. */
export interface AppendListener {
  onError(error: Error): void;
  onWritten?(): void;
}

/**
 * One file lines are appended to. Appends are written as they come, one write at a time (the ones that arrive
 * meanwhile go out together in the next), so a crash of the process loses nothing written; the data is synced to
 * the disk at most once a second. A failed write is reported and its lines counted as lost: a full disk must not
 * grow the process's memory for ever, nor stop the show.
 */
export class AppendOnlyFile {
  #pending: string[] = [];
  #writing: Promise<void> | undefined;
  #syncTimer: NodeJS.Timeout | undefined;
  #lastSyncAt = -Infinity;
  #unsynced = false;
  #closed = false;
  /** Lines a failed write lost. */
  lost = 0;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private readonly listener: AppendListener,
  ) {}

  /** Opens (creating it and its folder when needed) a file to append to. */
  static async open(path: string, listener: AppendListener): Promise<AppendOnlyFile> {
    await mkdir(dirname(path), { recursive: true });
    return new AppendOnlyFile(path, await open(path, 'a'), listener);
  }

  /** Appends one line (a newline is added). Ignored once closed. */
  appendLine(line: string): void {
    if (this.#closed) return;
    this.#pending.push(`${line}\n`);
    this.#writing ??= this.#writePending();
  }

  /** Resolves once everything appended so far is written (not necessarily synced). */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  /** Writes and syncs what is pending, then closes the file. Safe to call more than once. */
  async close(): Promise<void> {
    if (this.#closed) return this.flush();
    await this.flush();
    this.#closed = true;
    clearTimeout(this.#syncTimer);
    if (this.#unsynced) await this.#sync();
    await this.handle.close().catch((error: Error) => this.listener.onError(error));
  }

  async #writePending(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending;
      this.#pending = [];
      try {
        await this.handle.write(batch.join(''));
        this.#unsynced = true;
        this.listener.onWritten?.();
      } catch (error) {
        this.lost += batch.length;
        this.listener.onError(error as Error);
      }
    }
    this.#writing = undefined;
    this.#scheduleSync();
  }

  #scheduleSync(): void {
    if (!this.#unsynced || this.#syncTimer || this.#closed) return;
    const wait = Math.max(0, this.#lastSyncAt + SYNC_EVERY_MS - performance.now());
    this.#syncTimer = setTimeout(() => {
      this.#syncTimer = undefined;
      void this.#sync().then(() => this.#scheduleSync());
    }, wait);
    this.#syncTimer.unref();
  }

  async #sync(): Promise<void> {
    this.#unsynced = false;
    this.#lastSyncAt = performance.now();
    await this.handle.datasync().catch((error: Error) => this.listener.onError(error));
  }
}
