import { InvalidInputError } from '../errors.js';
import { endpoints, type EndpointSpec } from './catalogue.js';
import type { CallOptions, EndpointCaller, GuardedCallOptions } from './endpoint-caller.js';
import { asArray, checkRef } from './input-checks.js';
import { LayerPoll, type LayersSnapshot, type LayersWatch } from './layer-watch.js';
import type { Logger } from '../http/logger.js';
import type { Ref, RenderStreamLayer, RenderStreamLayers } from './types.js';

/** What an operator does to one layer's workload: the words every front end offers. */
export const LAYER_OPERATIONS = ['start', 'restart', 'sync', 'stop'] as const;
export type LayerOperation = (typeof LAYER_OPERATIONS)[number];

/** Core's command for each operation: what `needsConfirmation` reads (`stop` is guarded: the content goes dark). */
export const LAYER_OPERATION_COMMANDS: Readonly<Record<LayerOperation, EndpointSpec>> = {
  start: endpoints.startLayers,
  restart: endpoints.restartLayers,
  sync: endpoints.syncLayers,
  stop: endpoints.stopLayers,
};

/**
 * The layer a name typed by hand means, in the director's list: its exact name, else the one layer whose name matches
 * in another case (`unreal stage`), else the layer with that uid. Undefined when none matches, or when more than one
 * matches in another case (which one is meant cannot be told).
 */
export function layerNamed<Layer extends Pick<RenderStreamLayer, 'name' | 'uid'>>(layers: readonly Layer[], text: string): Layer | undefined {
  const exact = layers.find((layer) => layer.name === text);
  if (exact) return exact;
  const lower = text.toLowerCase();
  const alike = layers.filter((layer) => layer.name.toLowerCase() === lower);
  if (alike.length > 0) return alike.length === 1 ? alike[0] : undefined;
  return layers.find((layer) => layer.uid === text);
}

/** RenderStream: the workloads (Unreal, Notch, TouchDesigner) a cluster renders for each layer. */
export class RenderStreamApi {
  readonly #poll: LayerPoll;

  constructor(
    private readonly api: EndpointCaller,
    logger: Logger,
  ) {
    this.#poll = new LayerPoll((options) => this.layers(options), logger);
  }

  /**
   * Watches the layers and their workloads: one read of `renderstream/layers` a period (default 2 s, never under
   * 1 s) shared by every watcher of this client, each change told. A director without RenderStream is `offline` with
   * a NotOfferedError as its problem. Stopped with the last watcher, or by the client's `close()`.
   */
  watch(onChange: (snapshot: LayersSnapshot) => void, options?: { everyMs?: number }): LayersWatch {
    return this.#poll.watch(onChange, options);
  }

  /** Stops the layers' poll: part of the client's `close()`. */
  close(): void {
    this.#poll.close();
  }

  /** Each layer and the health of its workload. */
  async layers(options?: CallOptions): Promise<RenderStreamLayer[]> {
    return this.api.call(endpoints.renderStreamLayers, {}, options);
  }

  async startLayers(request: RenderStreamLayers, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.startLayers, { body: layersBody(request) }, options);
  }

  /** Guarded: the layers' content goes dark. */
  async stopLayers(request: RenderStreamLayers, options?: GuardedCallOptions): Promise<void> {
    await this.api.call(endpoints.stopLayers, { body: layersBody(request) }, options);
  }

  /** What an operator does to a crashed workload. */
  async restartLayers(request: RenderStreamLayers, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.restartLayers, { body: layersBody(request) }, options);
  }

  async syncLayers(request: RenderStreamLayers, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.syncLayers, { body: layersBody(request) }, options);
  }

  /** One operation on one layer; `stop` is guarded as `stopLayers` is (`{ confirm: true }`). */
  async operate(operation: LayerOperation, layer: Ref, options?: GuardedCallOptions): Promise<void> {
    const command = Object.hasOwn(LAYER_OPERATION_COMMANDS, operation) ? LAYER_OPERATION_COMMANDS[operation] : undefined;
    if (!command) throw new InvalidInputError(`"${String(operation)}" is no RenderStream layer operation (${LAYER_OPERATIONS.join(', ')}).`);
    await this.api.call(command, { body: layersBody({ layers: [layer] }) }, options);
  }

  /** Guarded: moves a machine's workloads to others. */
  async failover(request: { machine: Ref }, options?: GuardedCallOptions): Promise<void> {
    await this.api.call(endpoints.renderStreamFailover, { body: { machine: checkRef(request.machine, 'machine') } }, options);
  }

  /** Guarded: updates the layer's cluster pool and restarts its workload. */
  async failoverPool(request: { layer: Ref }, options?: GuardedCallOptions): Promise<void> {
    await this.api.call(endpoints.renderStreamFailoverPool, { body: { layer: checkRef(request.layer, 'layer') } }, options);
  }
}

function layersBody(request: RenderStreamLayers): RenderStreamLayers {
  return { layers: asArray(request?.layers ?? []).map((layer, index) => checkRef(layer, `layers[${index}]`)) };
}
