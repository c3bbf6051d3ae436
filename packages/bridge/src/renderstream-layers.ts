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

/**
 * The session's RenderStream layers, from one core watch of the director's layer list: each layer a member of the
 * stream with its workload as its value. A failed read marks every layer's workload stale (its last state held); a
 * layer the list no longer holds leaves every output. A director without RenderStream (core's NotOfferedError, or
 * NotDescribedError from a build that describes its API without it) is read once: the watch stops there, nothing
 * is published, and it is asked again only after a director change. Commands are matched to the layers last read
 * (bySegment, byOscName).
 */
export class RenderStreamLayers {
  readonly #layers = new Map<string, RenderStreamLayer>();
  #watch: LayersWatch | undefined;
  #offer: RenderStreamOffer = 'unknown';
  /** This watch has read a layer list: a later "not offered" does not end it. */
  #listed = false;
  /** The first snapshot came (of any status): the bridge's own layer topics are known, as far as they can be. */
  #read = false;
  /** The problem last logged, so a failing read is said once and its recovery once. */
  #problem: string | undefined;
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
    this.#watch?.close();
    this.#watch = undefined;
  }

  #snapshot(snapshot: LayersSnapshot): void {
    if (this.#closed) return;
    this.#read = true;
    const problem = snapshot.problem;
    // A build whose own description lacks the layer list is refused it before sending: the same answer, told sooner.
    if (snapshot.status === 'offline' && (problem?.error instanceof NotOfferedError || problem?.error instanceof NotDescribedError)) {
      this.#notOffered(problem.message);
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

  /**
   * The director has no RenderStream: its layers (of a director that had them, before a change) leave. When that is
   * its first answer the poll stops there; a director that did offer it is still read (a 404 while it loads another
   * project must not end the watch), its unchanged answers told no more.
   */
  #notOffered(message: string): void {
    this.#offer = 'not offered';
    this.#problem = undefined;
    if (!this.#listed) {
      this.#watch?.close();
      this.#watch = undefined;
    }
    for (const name of this.#layers.keys()) this.stream.removed({ what: 'layer', which: name });
    this.#layers.clear();
    this.log.info('renderstream not offered', { reason: message });
  }
}

/** `renderstream/<layer>`: the layer's name and uid, its workload's state and, when the director gives one, why. */
export function workloadOf({ name, uid, workload }: RenderStreamLayer): LayerWorkloadValue {
  const message = workload?.message;
  return { name, uid: String(uid), state: String(workload?.state ?? 'unknown'), ...(typeof message === 'string' && message !== '' ? { message } : {}) };
}
