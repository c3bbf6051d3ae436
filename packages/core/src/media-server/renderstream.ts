import { endpoints } from './catalogue.js';
import type { CallOptions, EndpointCaller, GuardedCallOptions } from './endpoint-caller.js';
import { asArray, checkRef } from './input-checks.js';
import { LayerPoll, type LayersSnapshot, type LayersWatch } from './layer-watch.js';
import type { Logger } from '../http/logger.js';
import type { Ref, RenderStreamLayer, RenderStreamLayers } from './types.js';

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
