import { ClosedError } from '../errors.js';
import type { Logger } from '../http/logger.js';
import { checkRef, shown } from '../media-server/input-checks.js';
import type { Ref } from '../media-server/types.js';
import { findTransport, type FoundTransport } from './find-transport.js';
import { WatcherTeller, type Watcher } from './clock-watchers.js';
import { TransportClock, type ClockSources, type ClockTiming, type ShowClockSnapshot, type TransportWatch, type WatchOptions } from './transport-clock.js';

/**
 * The refs still being looked for among the server's transports, one look per form of ref however many watch it.
 * A look that fails (no such transport, a uid and a name that disagree) is told its watchers once and tried again:
 * the project may gain or rename the transport meanwhile.
 */
interface Look {
  key: string;
  ref: Ref;
  watchers: Set<Watcher>;
  tell: WatcherTeller;
  retry?: NodeJS.Timeout;
}

/**
 * The show clocks of one client: one per transport (or multitransport) asked for, whatever form of ref names it,
 * shared by every watcher of it, so twenty watchers cost the director one live subscription group and one
 * annotations read.
 */
export class ShowClocks {
  /** By the uid of the transport or multitransport asked for. */
  readonly #clocks = new Map<string, TransportClock>();
  readonly #looks = new Map<string, Look>();
  #closed = false;

  constructor(
    private readonly sources: ClockSources,
    private readonly timing: ClockTiming,
    private readonly logger: Logger,
  ) {}

  watch(ref: Ref, onChange: (snapshot: ShowClockSnapshot) => void, options: WatchOptions = {}): TransportWatch {
    // A clock of a closed client would read the transports again and again on a timer that keeps the process alive.
    if (this.#closed) throw new ClosedError(`This media-server client is closed: create a new one to watch the clock of transport ${shown(ref?.name ?? ref?.uid)}.`);
    const asked = checkRef(ref, 'transport');
    const watcher: Watcher = { onChange, options, closed: false };
    const running = [...this.#clocks.values()].find((clock) => clock.isNamedBy(asked));
    if (running) running.add(watcher);
    else this.#lookFor(asked, watcher);
    return {
      get current() {
        return watcher.clock?.snapshotFor(watcher);
      },
      close: () => this.#release(watcher),
    };
  }

  close(): void {
    this.#closed = true;
    for (const look of this.#looks.values()) clearTimeout(look.retry);
    this.#looks.clear();
    for (const clock of [...this.#clocks.values()]) clock.dispose();
  }

  #lookFor(ref: Ref, watcher: Watcher): void {
    const key = JSON.stringify([ref.uid ?? null, ref.name ?? null]);
    let look = this.#looks.get(key);
    if (!look) {
      look = { key, ref, watchers: new Set(), tell: new WatcherTeller(shown(ref.name ?? ref.uid), this.logger) };
      this.#looks.set(key, look);
      void this.#look(look);
    }
    look.watchers.add(watcher);
    watcher.look = look.key;
    queueMicrotask(() => look.tell.status(watcher, 'offline'));
  }

  async #look(look: Look): Promise<void> {
    let found: FoundTransport;
    try {
      found = findTransport(look.ref, await this.sources.transports());
    } catch (error) {
      if (this.#looks.get(look.key) !== look) return;
      look.tell.problem(error, look.watchers);
      look.retry = setTimeout(() => void this.#look(look), this.timing.retryMs);
      return;
    }
    if (this.#looks.get(look.key) !== look) return;
    this.#looks.delete(look.key);
    const running = this.#clocks.get(found.target.uid);
    const clock = running ?? this.#open(found);
    for (const watcher of look.watchers) {
      watcher.look = undefined;
      clock.add(watcher);
    }
    if (!running) clock.start();
  }

  #open(found: FoundTransport): TransportClock {
    const { uid } = found.target;
    const clock = new TransportClock(found, this.sources, this.timing, this.logger, () => {
      if (this.#clocks.get(uid) === clock) this.#clocks.delete(uid);
    });
    this.#clocks.set(uid, clock);
    return clock;
  }

  #release(watcher: Watcher): void {
    if (watcher.closed) return;
    watcher.closed = true;
    watcher.clock?.remove(watcher);
    const look = watcher.look === undefined ? undefined : this.#looks.get(watcher.look);
    if (!look) return;
    look.watchers.delete(watcher);
    if (look.watchers.size > 0) return;
    clearTimeout(look.retry);
    this.#looks.delete(look.key);
  }
}
