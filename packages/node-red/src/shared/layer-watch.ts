import type { LayersSnapshot, LayersWatch, MediaServer } from '@stagelink/core';

export type LayersListener = (snapshot: LayersSnapshot) => void;

/**
 * One config node's watch of the RenderStream layers (core's `renderstream.watch`), shared by every node that
 * watches a layer on that server: opened with the first watcher, closed with the last, and closed for good with
 * the config node (a deploy that replaces it). A watcher that joins is told the latest snapshot at once.
 */
export class SharedLayerWatch {
  readonly #listeners = new Set<LayersListener>();
  #watch: LayersWatch | undefined;
  #latest: LayersSnapshot | undefined;
  #closed = false;

  constructor(private readonly client: MediaServer | undefined) {}

  /** Tells `listener` each snapshot that changed; answers what stops it. Without a client (a
   * setting that cannot make one) nothing is watched: the node shows the server's problem instead. */
  watch(listener: LayersListener): () => void {
    if (!this.client || this.#closed) return () => undefined;
    this.#listeners.add(listener);
    if (this.#latest) {
      const latest = this.#latest;
      queueMicrotask(() => {
        if (this.#listeners.has(listener)) listener(latest);
      });
    }
    this.#watch ??= this.client.renderstream.watch((snapshot) => {
      this.#latest = snapshot;
      for (const each of [...this.#listeners]) {
        try {
          each(snapshot);
        } catch {
          // One node's failure to show a snapshot must not keep it from the others, nor stop the poll.
        }
      }
    });
    return () => {
      if (!this.#listeners.delete(listener) || this.#listeners.size > 0) return;
      this.#stop();
    };
  }

  /** How many nodes watch now: the watch is open only while this is above 0. */
  get watchers(): number {
    return this.#listeners.size;
  }

  /** Stops the watch and forgets every watcher. Safe to call more than once. */
  close(): void {
    this.#closed = true;
    this.#listeners.clear();
    this.#stop();
  }

  #stop(): void {
    this.#watch?.close();
    this.#watch = undefined;
    this.#latest = undefined;
  }
}
