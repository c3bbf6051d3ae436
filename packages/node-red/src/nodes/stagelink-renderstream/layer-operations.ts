import type { CallOptions, MediaServer, Ref } from '@stagelink/core';

/**
 * What the node does to its layer, by the word a flow gives (`msg.operation`): core's RenderStream commands on one
 * layer. `stop` darkens the layer's content: it is sent only when confirmed (see LAYER_OPERATIONS_CONFIRMED).
 */
export const LAYER_OPERATIONS = ['start', 'restart', 'sync', 'stop'] as const;
export type LayerOperation = (typeof LAYER_OPERATIONS)[number];

/** The operations a stray msg must not fire: sent only with msg.confirm === true, or by an armed node. */
export const LAYER_OPERATIONS_CONFIRMED: readonly LayerOperation[] = ['stop'];

/**
 * The operation a word names, in any case; core's method names (`restartLayers`) and the director's paths
 * (`restartlayers`) read the same. Undefined for anything else.
 */
export function layerOperationNamed(word: string): LayerOperation | undefined {
  const bare = word.trim().toLowerCase().replace(/layers$/, '');
  return (LAYER_OPERATIONS as readonly string[]).includes(bare) ? (bare as LayerOperation) : undefined;
}

/** Runs `operation` on one layer; a confirmed stop is sent with core's confirmation. */
export async function runLayerOperation(client: MediaServer, operation: LayerOperation, layer: Ref, options: CallOptions): Promise<void> {
  const request = { layers: [layer] };
  switch (operation) {
    case 'start':
      return client.renderstream.startLayers(request, options);
    case 'restart':
      return client.renderstream.restartLayers(request, options);
    case 'sync':
      return client.renderstream.syncLayers(request, options);
    case 'stop':
      return client.renderstream.stopLayers(request, { ...options, confirm: true });
  }
}
