import { ClosedError, InvalidInputError, isUnreachable, reasonOf, StagelinkError } from '../errors.js';
import type { Logger } from '../http/logger.js';
import type { RenderStreamLayer } from './types.js';

/** How often the layers are read by default: a crashed workload shows within two seconds, as session health does. */
export const DEFAULT_LAYERS_EVERY_MS = 2000;
/** The shortest period a watcher may ask for: REST is not polled in a tight loop. */
export const MIN_LAYERS_EVERY_MS = 1000;

/** The RenderStream layers as last read, and whether that reading is the director's now. */
export interface LayersSnapshot {
  /** `online`: read this period. `stale`: the last read failed, the layers are from `readAt`. `offline`: none to show. */
  status: 'online' | 'stale' | 'offline';
  layers: RenderStreamLayer[];
  /** When the layers shown were read (epoch ms); absent while offline. */
  readAt?: number;
  /** Why the snapshot is not online: the read's error, in words and as the error itself for a front end's own words. */
  problem?: { message: string; error: StagelinkError };
}

export interface LayersWatch {
  /** The latest snapshot; undefined until the first read ends or once closed. */
  readonly current: LayersSnapshot | undefined;
  /** Stops telling this watcher; the poll stops with its last watcher. Safe to call more than once. */
  close(): void;
}

interface Watcher {
  everyMs: number;
  onChange(snapshot: LayersSnapshot): void;
  closed: boolean;
  current?: LayersSnapshot;
}

/**
 * One client's poll of `renderstream/layers`, shared by every watcher: read once a period (the shortest any watcher
 * asked for), never two reads at once, changes told to each watcher (a read that changes nothing is not told).
 * Nothing rejects: a failed read is the snapshot's status and problem.
 */
export class LayerPoll {
  readonly #watchers = new Set<Watcher>();
  #snapshot: LayersSnapshot | undefined;
  #told: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #reading = false;
  #closed = false;

  constructor(
    private readonly read: (options: { timeoutMs: number }) => Promise<RenderStreamLayer[]>,
    private readonly logger: Logger,
  ) {}

  watch(onChange: (snapshot: LayersSnapshot) => void, options: { everyMs?: number } = {}): LayersWatch {
    if (this.#closed) throw new ClosedError('This media-server client is closed: create a new one to watch the RenderStream layers.');
    if (typeof onChange !== 'function') throw new InvalidInputError(`watch needs a function to call with each snapshot of the layers (got ${typeof onChange}).`);
    const watcher: Watcher = { everyMs: everyMsOf(options?.everyMs), onChange, closed: false };
    this.#watchers.add(watcher);
    if (this.#snapshot) {
      const snapshot = this.#snapshot;
      queueMicrotask(() => this.#tell(watcher, snapshot));
    }
    // The first watcher reads at once; one joining a running poll waits for its next read.
    if (!this.#reading && !(this.#timer && this.#snapshot)) this.#schedule(this.#snapshot ? undefined : 0);
    return {
      get current() {
        return watcher.closed ? undefined : watcher.current;
      },
      close: () => {
        if (watcher.closed) return;
        watcher.closed = true;
        this.#watchers.delete(watcher);
        if (this.#watchers.size === 0) this.#stop();
      },
    };
  }

  /** Stops the poll and refuses later watches. */
  close(): void {
    this.#closed = true;
    for (const watcher of this.#watchers) watcher.closed = true;
    this.#watchers.clear();
    this.#stop();
  }

  #stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#snapshot = undefined;
    this.#told = undefined;
  }

  #period(): number {
    return Math.min(...[...this.#watchers].map((watcher) => watcher.everyMs));
  }

  /** The next read after `waitMs`, by default one period. */
  #schedule(waitMs?: number): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#closed || this.#watchers.size === 0) return;
    this.#timer = setTimeout(() => void this.#poll(), waitMs ?? this.#period());
  }

  async #poll(): Promise<void> {
    this.#timer = undefined;
    this.#reading = true;
    const timeoutMs = Math.min(this.#period(), 5000);
    try {
      const layers = await this.read({ timeoutMs });
      this.#snapshot = { status: 'online', layers, readAt: Date.now() };
    } catch (error) {
      this.#snapshot = this.#failed(error);
    } finally {
      this.#reading = false;
    }
    // Every watcher left during the read: a watcher that comes later must not be told this reading as now.
    if (this.#watchers.size === 0) return this.#stop();
    const snapshot = this.#snapshot;
    const told = JSON.stringify({ ...snapshot, readAt: undefined, problem: snapshot.problem?.message });
    if (told !== this.#told) {
      this.#told = told;
      for (const watcher of [...this.#watchers]) this.#tell(watcher, snapshot);
    }
    this.#schedule();
  }

  /** A failed read: the layers last read, marked stale, while the director answers; none while it cannot be reached. */
  #failed(error: unknown): LayersSnapshot {
    const problem = { message: reasonOf(error), error: error instanceof StagelinkError ? error : new StagelinkError(reasonOf(error), undefined, { cause: error }) };
    const last = this.#snapshot;
    if (isUnreachable(error) || !last || last.status === 'offline') return { status: 'offline', layers: [], problem };
    return { status: 'stale', layers: last.layers, ...(last.readAt === undefined ? {} : { readAt: last.readAt }), problem };
  }

  #tell(watcher: Watcher, snapshot: LayersSnapshot): void {
    if (watcher.closed) return;
    watcher.current = snapshot;
    try {
      watcher.onChange(snapshot);
    } catch (error) {
      this.logger.warn(`A RenderStream layers watcher threw: ${reasonOf(error)}`, { code: 'LAYERS_WATCHER_THREW', facts: { reason: reasonOf(error) }, error });
    }
  }
}

function everyMsOf(everyMs: unknown): number {
  if (everyMs === undefined) return DEFAULT_LAYERS_EVERY_MS;
  if (typeof everyMs !== 'number' || !Number.isFinite(everyMs) || everyMs < MIN_LAYERS_EVERY_MS) {
    throw new InvalidInputError(`everyMs must be a number of milliseconds of at least ${MIN_LAYERS_EVERY_MS} (got ${JSON.stringify(everyMs) ?? typeof everyMs}).`);
  }
  return everyMs;
}
