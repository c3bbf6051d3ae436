/**
 * The hardware watches of one server's client, shared by every key: one core watch per machine (its hostname, its
 * SMC and the period), however many health keys show it, closed when the last of them goes. Core already reads
 * each SMC once per period for every watch of a client; keeping one watch here also keeps one snapshot per machine,
 * so a key that appears shows what the others show at once.
 */
import { reasonOf, type HardwareSnapshot, type HardwareWatch, type Logger, type MediaServer, type SmcTarget } from '@stagelink/core';

export type HardwareListener = (snapshot: HardwareSnapshot) => void;

interface Watched {
  watch: HardwareWatch;
  listeners: Set<HardwareListener>;
  current?: HardwareSnapshot;
}

export class SharedHardware {
  readonly #watched = new Map<string, Watched>();
  #closed = false;

  constructor(
    private readonly server: Pick<MediaServer, 'hardwareOf'>,
    private readonly logger: Logger,
  ) {}

  /** Machines watched now, for tests and diagnostics. */
  get watchCount(): number {
    return this.#watched.size;
  }

  /**
   * Tells `listener` each snapshot of `hostname`'s hardware read from `smc` every `everyMs`, the latest one at once
   * when there is one. Returns the function that stops telling it; the last one out closes the machine's watch.
   */
  watch(hostname: string, smc: SmcTarget, everyMs: number, listener: HardwareListener): () => void {
    if (this.#closed) return () => undefined;
    const key = JSON.stringify([hostname.toLowerCase(), smc.host, everyMs]);
    let watched = this.#watched.get(key);
    if (!watched) {
      const listeners = new Set<HardwareListener>();
      const opened: Partial<Watched> = { listeners };
      try {
        opened.watch = this.server.hardwareOf(smc).watch((snapshot) => {
          opened.current = snapshot;
          for (const each of [...listeners]) each(snapshot);
        }, { everyMs });
      } catch (error) {
        this.logger.warn(`The hardware of ${hostname} cannot be watched: ${reasonOf(error)}`);
        return () => undefined;
      }
      watched = opened as Watched;
      this.#watched.set(key, watched);
    }
    const entry = watched;
    entry.listeners.add(listener);
    if (entry.current) listener(entry.current);
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      entry.listeners.delete(listener);
      if (entry.listeners.size > 0 || this.#watched.get(key) !== entry) return;
      this.#watched.delete(key);
      entry.watch.close();
    };
  }

  /** Closes every machine's watch; later watches tell nothing. Safe to call more than once. */
  close(): void {
    this.#closed = true;
    for (const entry of this.#watched.values()) entry.watch.close();
    this.#watched.clear();
  }
}
