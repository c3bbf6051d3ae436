/**
 * The RenderStream layers of one server's client, shared by every layer key: one core watch
 * (`renderstream.watch`) however many keys show a layer, opened when the first of them appears and closed when
 * the last one goes. Keeping the latest snapshot here lets a key that appears show what the others show at once.
 */
import { reasonOf, type LayersSnapshot, type LayersWatch, type Logger, type MediaServer } from '@stagelink/core';

export type LayersListener = (snapshot: LayersSnapshot) => void;

export class SharedLayers {
  readonly #listeners = new Set<LayersListener>();
  #watch: LayersWatch | undefined;
  #current: LayersSnapshot | undefined;
  #closed = false;

  constructor(
    private readonly server: Pick<MediaServer, 'renderstream'>,
    private readonly logger: Logger,
  ) {}

  /** Whether core's watch is open now, for tests and diagnostics. */
  get watching(): boolean {
    return this.#watch !== undefined;
  }

  /** The latest snapshot while someone watches; undefined before the first read ends. */
  get current(): LayersSnapshot | undefined {
    return this.#current;
  }

  /**
   * Tells `listener` each snapshot of the layers, the latest one at once when there is one. Returns the function
   * that stops telling it; the last one out closes the watch.
   */
  watch(listener: LayersListener): () => void {
    if (this.#closed) return () => undefined;
    this.#listeners.add(listener);
    if (!this.#watch) this.#open();
    else if (this.#current) this.#tell(listener, this.#current);
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.#shut();
    };
  }

  /**
   * Reads the layers again at once (after a press, or after the computer slept): a new watch reads at once, and the
   * keys keep the last snapshot until its answer comes.
   */
  refresh(): void {
    if (this.#closed || !this.#watch) return;
    this.#watch.close();
    this.#watch = undefined;
    this.#open();
  }

  /** Closes the watch; later watches tell nothing. Safe to call more than once. */
  close(): void {
    this.#closed = true;
    this.#listeners.clear();
    this.#shut();
  }

  #open(): void {
    try {
      this.#watch = this.server.renderstream.watch((snapshot) => {
        this.#current = snapshot;
        for (const listener of [...this.#listeners]) this.#tell(listener, snapshot);
      });
    } catch (error) {
      this.logger.warn(`The RenderStream layers cannot be watched: ${reasonOf(error)}`);
    }
  }

  #shut(): void {
    this.#watch?.close();
    this.#watch = undefined;
    // The next key must not be shown a snapshot from before the pause as if it were current.
    this.#current = undefined;
  }

  #tell(listener: LayersListener, snapshot: LayersSnapshot): void {
    try {
      listener(snapshot);
    } catch (error) {
      this.logger.warn(`A key failed to show the RenderStream layers: ${reasonOf(error)}`);
    }
  }
}
