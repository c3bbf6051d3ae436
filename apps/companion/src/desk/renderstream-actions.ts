/**
 * The RenderStream actions: start, restart, sync and stop a layer's workload. Stop takes two presses, as everything
 * core's `needsConfirmation` marks does (see Arming): the layer's content goes dark. A layer typed in that the
 * director does not have is refused before anything is sent, naming the layers it has.
 */
import type { CompanionActionDefinition, DropdownChoice } from '@companion-module/base';
import { InvalidInputError, LAYER_OPERATION_COMMANDS, type LayerOperation, needsConfirmation, type Ref } from '@stagelink/core';
import type { Show } from '../show/show.js';
import { type Arming, armKey } from './arming.js';
import { textOption } from './option-values.js';

export interface LayerChoices {
  /** The director's RenderStream layers, by name. */
  layers: DropdownChoice<string>[];
}

/** Action id → what it does to the layer's workload (core's command for it says whether it is guarded). */
export const LAYER_ACTIONS = {
  renderstream_start: 'start',
  renderstream_restart: 'restart',
  renderstream_sync: 'sync',
  renderstream_stop: 'stop',
} as const satisfies Record<string, LayerOperation>;

export type LayerActionId = keyof typeof LAYER_ACTIONS;

/**
 * The layer an action names, as core takes it: by the uid of the layer the director listed (so a name typed in
 * another case still reaches it), or by the name as typed while the director's layers are not known (offline
 * programming, or no answer yet: the director then says whether it has it). Refused when the director said it has
 * no RenderStream, or listed its layers and none is the one named.
 */
export function layerRef(show: Show, typed: string | undefined, action: string): { ref: Ref; name: string } {
  if (typed === undefined) throw new InvalidInputError(`${action}: choose a RenderStream layer.`);
  const renderStream = show.renderStream;
  if (renderStream.offered === false) {
    throw new InvalidInputError(`${action}: the director offers no RenderStream (its build has no RenderStream layers), so nothing was sent.`);
  }
  const found = renderStream.layerNamed(typed);
  if (found) return { ref: { uid: found.layer.uid }, name: found.layer.name };
  if (renderStream.offered === true) {
    const names = renderStream.layers.map(({ layer }) => `"${layer.name}"`);
    throw new InvalidInputError(
      `${action}: the director has no RenderStream layer "${typed}" (${names.length === 0 ? 'it lists none' : `its layers: ${names.join(', ')}`}), so nothing was sent. Check the layer's name on the button.`,
    );
  }
  return { ref: { name: typed }, name: typed };
}

export function renderStreamActions(current: () => Show, arming: Arming, choices: LayerChoices): Record<LayerActionId, CompanionActionDefinition> {
  const layer = { type: 'dropdown', id: 'layer', label: 'RenderStream layer', choices: choices.layers, default: choices.layers[0]?.id ?? '', allowCustom: true } as const;
  const action = (id: LayerActionId): CompanionActionDefinition => {
    const words = LAYER_ACTIONS[id];
    const guarded = needsConfirmation(LAYER_OPERATION_COMMANDS[words]);
    return {
      name: `RenderStream: ${words} layer${guarded ? ' (two presses)' : ''}`,
      description: guarded
        ? 'The layer\u2019s content goes dark. The first press arms it for 5 seconds (the armed feedback shows it); the second press of the same button sends it.'
        : `${words.replace(/^./, (first) => first.toUpperCase())}s the workload of the layer.`,
      options: [layer],
      callback: async ({ options, controlId }) => {
        const show = current();
        // Refused before arming: a press that can never fire must not show as armed.
        const { ref, name } = layerRef(show, textOption(options['layer']), `RenderStream ${words}`);
        if (guarded && !arming.press(armKey(id, name), controlId)) return;
        // A guarded operation gets here only on the arming second press.
        await show.server.renderstream.operate(words, ref, { confirm: true });
      },
    };
  };
  return {
    renderstream_start: action('renderstream_start'),
    renderstream_restart: action('renderstream_restart'),
    renderstream_sync: action('renderstream_sync'),
    renderstream_stop: action('renderstream_stop'),
  };
}
