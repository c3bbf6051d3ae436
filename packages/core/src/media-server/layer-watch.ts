import { ClosedError, InvalidInputError, isUnreachable, reasonOf, StagelinkError } from '../errors.js';
import type { Logger } from '../http/logger.js';
import { SharedPoll, type PollReadOptions, type PollWatch } from '../shared-poll.js';
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

export type LayersWatch = PollWatch<LayersSnapshot>;

/**
 * One client's poll of `renderstream/layers`, shared by every watcher (see SharedPoll): read once a period (the
 * shortest any watcher asked for), changes told to each watcher. Nothing rejects: a failed read is the snapshot's
 * status and problem.
 */
export class LayerPoll {
  readonly #poll: SharedPoll<LayersSnapshot, LayersSnapshot>;
  #closed = false;

  constructor(read: (options: PollReadOptions) => Promise<RenderStreamLayer[]>, logger: Logger) {
    this.#poll = new SharedPoll({
      read: (last, options) => readLayers(read, last, options),
      // The reading time alone is no change; a problem is told by its words.
      changeOf: (snapshot) => JSON.stringify({ ...snapshot, readAt: undefined, problem: snapshot.problem?.message }),
      watcherThrew: (error) => {
        logger.warn(`A RenderStream layers watcher threw: ${reasonOf(error)}`, { code: 'LAYERS_WATCHER_THREW', facts: { reason: reasonOf(error) }, error });
      },
    });
  }

  watch(onChange: (snapshot: LayersSnapshot) => void, options: { everyMs?: number } = {}): LayersWatch {
    if (this.#closed) throw new ClosedError('This media-server client is closed: create a new one to watch the RenderStream layers.');
    if (typeof onChange !== 'function') throw new InvalidInputError(`watch needs a function to call with each snapshot of the layers (got ${typeof onChange}).`);
    return this.#poll.watch({ everyMs: everyMsOf(options?.everyMs), view: (snapshot) => snapshot, onChange });
  }

  /** Stops the poll and refuses later watches. */
  close(): void {
    this.#closed = true;
    this.#poll.stop();
  }
}

/**
 * One read of the layers as a snapshot. A failed read keeps the layers last read, marked stale, while the director
 * answers; none while it cannot be reached.
 */
async function readLayers(read: (options: PollReadOptions) => Promise<RenderStreamLayer[]>, last: LayersSnapshot | undefined, options: PollReadOptions): Promise<LayersSnapshot> {
  try {
    return { status: 'online', layers: await read(options), readAt: Date.now() };
  } catch (error) {
    const problem = { message: reasonOf(error), error: error instanceof StagelinkError ? error : new StagelinkError(reasonOf(error), undefined, { cause: error }) };
    if (isUnreachable(error) || !last || last.status === 'offline') return { status: 'offline', layers: [], problem };
    return { status: 'stale', layers: last.layers, ...(last.readAt === undefined ? {} : { readAt: last.readAt }), problem };
  }
}

function everyMsOf(everyMs: unknown): number {
  if (everyMs === undefined) return DEFAULT_LAYERS_EVERY_MS;
  if (typeof everyMs !== 'number' || !Number.isFinite(everyMs) || everyMs < MIN_LAYERS_EVERY_MS) {
    throw new InvalidInputError(`everyMs must be a number of milliseconds of at least ${MIN_LAYERS_EVERY_MS} (got ${JSON.stringify(everyMs) ?? typeof everyMs}).`);
  }
  return everyMs;
}
