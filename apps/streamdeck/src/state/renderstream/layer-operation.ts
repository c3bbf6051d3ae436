/**
 * What a RenderStream layer key does to its layer's workload, and which operations take two presses: stopping
 * is guarded by core (the layer's content goes dark), and a restart drops the layer's content while the workload
 * comes back, so both wait for a confirming press; starting a stopped workload fires at once.
 */
import { endpoints, needsConfirmation, type LayersSnapshot, type MediaServer, type Ref, type RenderStreamLayer } from '@stagelink/core';
import type { LayerOperation } from '../../settings.js';

export const LAYER_OPERATION_WORDS: Record<LayerOperation, string> = { restart: 'Restart', start: 'Start', stop: 'Stop' };

/** Whether the operation fires only on a second press within the arm window. */
export function takesTwoPresses(operation: LayerOperation): boolean {
  switch (operation) {
    case 'restart':
      // Not guarded by core (a restart is what a crashed workload needs), but a live layer goes dark meanwhile.
      return true;
    case 'start':
      return needsConfirmation(endpoints.startLayers);
    case 'stop':
      return needsConfirmation(endpoints.stopLayers);
  }
}

/**
 * Runs the operation on one layer. `stop` carries core's confirmation: the key only gets here after the
 * operator's confirming press.
 */
export async function runLayerOperation(server: Pick<MediaServer, 'renderstream'>, operation: LayerOperation, layer: Ref): Promise<void> {
  const request = { layers: [layer] };
  switch (operation) {
    case 'restart':
      return server.renderstream.restartLayers(request);
    case 'start':
      return server.renderstream.startLayers(request);
    case 'stop':
      return server.renderstream.stopLayers(request, { confirm: true });
  }
}

/**
 * The layer a key names, from the director's list: its exact name, else the one layer whose name matches in
 * another case (a name typed as `unreal stage`). Undefined when none matches, or more than one does in another case.
 */
export function layerNamed(layers: readonly RenderStreamLayer[], name: string): RenderStreamLayer | undefined {
  const exact = layers.find((layer) => layer.name === name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  const alike = layers.filter((layer) => layer.name.toLowerCase() === lower);
  return alike.length === 1 ? alike[0] : undefined;
}

/** The sentence for a layer name the director does not list, naming what it does list. */
export function noLayerReason(name: string, snapshot: LayersSnapshot): string {
  const listed = snapshot.layers.map((layer) => `"${layer.name}"`).join(', ');
  return `The director lists no RenderStream layer "${name}" (${listed === '' ? 'it lists none' : `it lists ${listed}`}).`;
}
