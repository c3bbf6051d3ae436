import { LAYER_OPERATION_COMMANDS, LAYER_OPERATIONS, needsConfirmation, type LayerOperation } from '@stagelink/core';

/**
 * The operations a stray msg must not fire (core guards them: `stop` darkens the layer's content): sent only with
 * msg.confirm === true, or by an armed node.
 */
export const LAYER_OPERATIONS_CONFIRMED: readonly LayerOperation[] = LAYER_OPERATIONS.filter((operation) => needsConfirmation(LAYER_OPERATION_COMMANDS[operation]));

/**
 * The operation a word names (`msg.operation`), in any case; core's method names (`restartLayers`) and the
 * director's paths (`restartlayers`) read the same. Undefined for anything else.
 */
export function layerOperationNamed(word: string): LayerOperation | undefined {
  const bare = word.trim().toLowerCase().replace(/layers$/, '');
  return (LAYER_OPERATIONS as readonly string[]).includes(bare) ? (bare as LayerOperation) : undefined;
}
