/**
 * The RenderStream layers of the session and the state of each one's workload (Unreal, Notch, TouchDesigner), from
 * core's shared watch of `renderstream/layers`: one watch per connection, whatever the buttons showing them. A
 * director without RenderStream (the documents' servers, older builds) answers that it offers none: the watch is
 * closed then, and opened again only when the director moves or its live stream comes back (a restart, maybe on
 * another build), so such a director is not asked twice a second for what it does not have.
 */
import { layerNamed, type LayersSnapshot, type LayersWatch, type Logger, type MediaServer, type RenderStreamLayer, reasonOf, VariableIds } from '@stagelink/core';
import type { Freshness } from './freshness.js';

/**
 * A build that answers it has no RenderStream (404), or whose own description lacks it (core refuses the read
 * unsent): either way there are no layers on this director.
 */
const NOT_OFFERED_CODES: ReadonlySet<string> = new Set(['STAGELINK_ERR_NOT_OFFERED', 'STAGELINK_ERR_NOT_DESCRIBED']);

/** One layer as the module shows it: its variable id, given once and kept for the session. */
export interface ShownLayer {
  id: string;
  layer: RenderStreamLayer;
}

/**
 * The layers to show after a snapshot, and whether the director offers RenderStream (undefined: not known yet). An
 * unreachable director takes no layer away: its layers stay, shown as `no link`, until it answers again; only an
 * answer (or a director that says it has no RenderStream) tells which layers left.
 */
export function layersAfter(known: readonly RenderStreamLayer[], snapshot: LayersSnapshot): { layers: RenderStreamLayer[]; offered: boolean | undefined } {
  if (snapshot.status !== 'offline') return { layers: snapshot.layers, offered: true };
  if (NOT_OFFERED_CODES.has(snapshot.problem?.error.code ?? '')) return { layers: [], offered: false };
  return { layers: [...known], offered: undefined };
}

/** How far the layers shown can be trusted: `live` only while the last read was answered. */
export function freshnessOfLayers(snapshot: LayersSnapshot | undefined): Freshness {
  if (!snapshot) return 'waiting';
  if (snapshot.status === 'online') return 'live';
  return snapshot.status === 'stale' ? 'stale' : 'no link';
}

export class RenderStreamWatch {
  #watch: LayersWatch | undefined;
  #snapshot: LayersSnapshot | undefined;
  #offered: boolean | undefined;
  /** By layer name, in the director's order. */
  #layers = new Map<string, ShownLayer>();
  readonly #ids = new VariableIds();
  #closed = false;

  constructor(
    private readonly server: MediaServer,
    private readonly logger: Logger,
    /** Told after each change; `structure` when layers came or went. */
    private readonly onChange: (structure: boolean) => void,
  ) {}

  start(): void {
    if (this.#closed || this.#watch) return;
    this.#watch = this.server.renderstream.watch((snapshot) => this.#onSnapshot(snapshot));
  }

  /** Asks again whether the director offers RenderStream, when it said it did not (it moved, or it restarted). */
  recheck(): void {
    if (this.#offered === false) this.start();
  }

  /** False once the director said it has no RenderStream; undefined before it answered either way. */
  get offered(): boolean | undefined {
    return this.#offered;
  }

  get freshness(): Freshness {
    return freshnessOfLayers(this.#snapshot);
  }

  /** The latest snapshot (a new object at each change, for the feedback checks). */
  get snapshot(): LayersSnapshot | undefined {
    return this.#snapshot;
  }

  get layers(): ShownLayer[] {
    return [...this.#layers.values()];
  }

  /** The layer a typed option means, as core reads a typed layer name (a dropdown option may also hold a uid). */
  layerNamed(text: string): ShownLayer | undefined {
    const found = layerNamed(this.layers.map(({ layer }) => layer), text);
    return found && this.#layers.get(found.name);
  }

  layerById(id: string): ShownLayer | undefined {
    return this.layers.find((shown) => shown.id === id);
  }

  close(): void {
    this.#closed = true;
    this.#watch?.close();
    this.#watch = undefined;
  }

  #onSnapshot(snapshot: LayersSnapshot): void {
    if (this.#closed) return;
    const { layers, offered } = layersAfter(this.layers.map(({ layer }) => layer), snapshot);
    if (offered === false && this.#offered !== false) {
      this.logger.debug?.(`The director offers no RenderStream (${snapshot.problem ? reasonOf(snapshot.problem.error) : 'no layers'}): no layers to show or act on.`);
      this.#watch?.close();
      this.#watch = undefined;
    }
    if (offered !== undefined) this.#offered = offered;
    this.#snapshot = snapshot;
    const before = [...this.#layers.keys()].join('\u0000');
    this.#layers = new Map(layers.map((layer) => [layer.name, { id: this.#ids.idOf(layer.name), layer }]));
    this.onChange([...this.#layers.keys()].join('\u0000') !== before);
  }
}
