import { NotDescribedError, NotOfferedError, reasonOf, type LayersSnapshot, type LayersWatch, type MediaServer, type RenderStreamLayer } from '@stagelink/core';
import type { BridgeLog } from './log.js';
import { oscNameOf } from './osc-state.js';
import type { LayerWorkloadValue, Member } from './session-events.js';
import { readFailureReason, type StaleReason } from './stale-reasons.js';
import { topicSegment } from './topics.js';

/** What the layers feed of the session's state stream. */
export interface LayerStream {
  added(member: Member): void;
  removed(member: Member): void;
  state(event: { what: 'layer'; which: string; part: 'workload'; value: LayerWorkloadValue }): void;
  markStale(value: { what: 'layer'; which: string; part: 'workload' }, reason: StaleReason): void;
}

/** Whether the director offers RenderStream: unknown until its layers were first read. */
export type RenderStreamOffer = 'unknown' | 'offered' | 'not offered';

/** How long a director whose first answer was a 404 waits before its layer list is asked for again. */
export const NOT_OFFERED_RECHECK_MS = 60_000;

/**
 * The session's RenderStream layers, from one core watch of the director's layer list: each layer a member of the
 * stream with its workload as its value. A failed read marks every layer's workload stale (its last state held); a
 * layer leaves every output only when a list answered without it.
 * A build whose own description lacks the layer list (core's NotDescribedError) has no RenderStream: its layers
 * leave, the watch stops, and it is asked again only after a director change. A 404 (core's NotOfferedError) says
 * less: a build without RenderStream answers so, and so does a director still loading its project. Before any list
 * was read it stops the watch, asked again a minute later or after a director change; after a list, it is a failed
 * read like any other. Commands are matched to the layers last read (bySegment, byOscName).
 */
export class RenderStreamLayers {
  readonly #layers = new Map<string, RenderStreamLayer>();
  #watch: LayersWatch | undefined;
  #offer: RenderStreamOffer = 'unknown';
  /** This watch has read a layer list: a later 404 is a failed read, not a director without RenderStream. */
  #listed = false;
  /** The layer list was answered, or the director said it has none: the bridge's own layer topics are known. */
  #read = false;
  /** The problem last logged, so a failing read is said once and its recovery once. */
  #problem: string | undefined;
  #recheck: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    private readonly mediaServer: MediaServer,
    private readonly stream: LayerStream,
    private readonly everyMs: number,
    private readonly log: BridgeLog,
  ) {}

  get offer(): RenderStreamOffer {
    return this.#offer;
  }

  /** The layer list has been answered (or refused) once since the watch started. */
  get read(): boolean {
    return this.#read;
  }

  /** The names of the layers last read, as the director spells them. */
  get names(): string[] {
    return [...this.#layers.keys()];
  }

  /** The layer a command topic's segment names (as `topicSegment` makes it); undefined when none is spelt so. */
  bySegment(segment: string): RenderStreamLayer | undefined {
    return [...this.#layers.values()].find((layer) => topicSegment(layer.name) === segment);
  }

  /** The layer an OSC address part names (as `oscNameOf` makes it); undefined when none is spelt so. */
  byOscName(part: string): RenderStreamLayer | undefined {
    return [...this.#layers.values()].find((layer) => oscNameOf(layer.name) === part);
  }

  start(): void {
    clearTimeout(this.#recheck);
    this.#recheck = undefined;
    if (this.#closed || this.#watch) return;
    this.#listed = false;
    try {
      this.#watch = this.mediaServer.renderstream.watch((snapshot) => this.#snapshot(snapshot), { everyMs: this.everyMs });
    } catch (error) {
      this.log.warn('renderstream not watched', { reason: reasonOf(error) });
    }
  }

  /** Another director (another build, perhaps): one that did not offer RenderStream is asked again. */
  directorChanged(): void {
    if (this.#closed || this.#watch) return;
    this.#offer = 'unknown';
    this.start();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#recheck);
    this.#watch?.close();
    this.#watch = undefined;
  }

  #snapshot(snapshot: LayersSnapshot): void {
    if (this.#closed) return;
    const problem = snapshot.problem;
    if (snapshot.status === 'offline' && problem?.error instanceof NotDescribedError) {
      this.#read = true;
      return this.#notOffered(problem.message);
    }
    if (snapshot.status === 'offline' && problem?.error instanceof NotOfferedError && !this.#listed) {
      this.#read = true;
      this.#notOffered(problem.message);
      this.#recheck = setTimeout(() => this.start(), NOT_OFFERED_RECHECK_MS);
      this.#recheck.unref();
      return;
    }
    if (snapshot.status !== 'online') {
      const reason = readFailureReason(problem?.error);
      for (const name of this.#layers.keys()) this.stream.markStale({ what: 'layer', which: name, part: 'workload' }, reason);
      const message = problem?.message ?? snapshot.status;
      if (message !== this.#problem) this.log.warn('read failed', { what: 'renderstream', reason: message });
      this.#problem = message;
      return;
    }
    this.#read = true;
    if (this.#problem !== undefined) this.log.info('read recovered', { what: 'renderstream' });
    this.#problem = undefined;
    this.#offer = 'offered';
    this.#listed = true;
    const now = new Map(snapshot.layers.filter((layer) => typeof layer?.name === 'string').map((layer) => [layer.name, layer]));
    for (const name of this.#layers.keys()) {
      if (now.has(name)) continue;
      this.log.info('renderstream layer no longer listed', { layer: name });
      this.#layers.delete(name);
      this.stream.removed({ what: 'layer', which: name });
    }
    for (const [name, layer] of now) {
      if (!this.#layers.has(name)) this.stream.added({ what: 'layer', which: name });
      this.#layers.set(name, layer);
      this.stream.state({ what: 'layer', which: name, part: 'workload', value: workloadOf(layer) });
    }
  }

  /** The director has no RenderStream (as far as it says): the watch stops, and the layers of a director before it leave. */
  #notOffered(message: string): void {
    // Said once, not at each minute's check of a director that still has none.
    if (this.#offer !== 'not offered') this.log.info('renderstream not offered', { reason: message });
    this.#offer = 'not offered';
    this.#problem = undefined;
    this.#watch?.close();
    this.#watch = undefined;
    for (const name of this.#layers.keys()) this.stream.removed({ what: 'layer', which: name });
    this.#layers.clear();
  }
}

/** `renderstream/<layer>`: the layer's name and uid, its workload's state and, when the director gives one, why. */
export function workloadOf({ name, uid, workload }: RenderStreamLayer): LayerWorkloadValue {
  const message = workload?.message;
  return { name, uid: String(uid), state: String(workload?.state ?? 'unknown'), ...(typeof message === 'string' && message !== '' ? { message } : {}) };
}
