/**
 * What a RenderStream layer key does to its layer's workload, and which operations take two presses: stopping
 * is guarded by core (the layer's content goes dark), and a restart drops the layer's content while the workload
 * comes back, so both wait for a confirming press; starting a stopped workload fires at once.
 */
import { LAYER_OPERATION_COMMANDS, needsConfirmation, type LayersSnapshot } from '@stagelink/core';
import type { LayerOperation } from '../../settings.js';

export const LAYER_OPERATION_WORDS: Record<LayerOperation, string> = { restart: 'Restart', start: 'Start', stop: 'Stop' };

/** Whether the operation fires only on a second press within the arm window. */
export function takesTwoPresses(operation: LayerOperation): boolean {
  switch (operation) {
    case 'restart':
      // Not guarded by core (a restart is what a crashed workload needs), but a live layer goes dark meanwhile.
      return true;
    case 'start':
      return needsConfirmation(LAYER_OPERATION_COMMANDS.start);
    case 'stop':
      return needsConfirmation(LAYER_OPERATION_COMMANDS.stop);
  }
}

/** The sentence for a layer name the director does not list, naming what it does list. */
export function noLayerReason(name: string, snapshot: LayersSnapshot): string {
  const listed = snapshot.layers.map((layer) => `"${layer.name}"`).join(', ');
  return `The director lists no RenderStream layer "${name}" (${listed === '' ? 'it lists none' : `it lists ${listed}`}).`;
}
