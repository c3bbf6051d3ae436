/**
 * The RenderStream layer key: the layer's name over its workload's state, as a word, a symbol and a colour of the
 * health palette (RUNNING on the ok colour, ERROR on the error colour, STARTING on the warning colour, STOPPED on
 * the dark face); a word the director uses that the plugin does not know is shown as it comes. The key's own
 * states have faces here too: armed for a second press, a layer the director does not list, and a director that
 * offers no RenderStream at all.
 */
import type { WorkloadState } from '@stagelink/core';
import { keyFace } from './key-layout.js';
import { inkOn, palette } from './palette.js';
import type { StatusSymbol } from './symbols.js';

/** What the key calls itself while it has no layer to name (SET UP, LOADING). */
export const LAYER_KEY_NAME = 'LAYER';

interface WorkloadSign {
  word: string;
  symbol: StatusSymbol;
  background: string;
}

const WORKLOAD_SIGNS: Record<'running' | 'error' | 'starting' | 'stopped', WorkloadSign> = {
  running: { word: 'RUNNING', symbol: 'ok', background: palette.ok },
  error: { word: 'ERROR', symbol: 'error', background: palette.error },
  starting: { word: 'STARTING', symbol: 'busy', background: palette.warning },
  stopped: { word: 'STOPPED', symbol: 'stopped', background: palette.neutral },
};

/** The sign of a workload state; a state the plugin does not know keeps the director's word, with a question mark. */
export function workloadSign(state: WorkloadState): WorkloadSign {
  const known = WORKLOAD_SIGNS[state as keyof typeof WORKLOAD_SIGNS] as WorkloadSign | undefined;
  return known ?? { word: String(state).toUpperCase(), symbol: 'unknown', background: palette.neutral };
}

/** The layer over its workload's state. */
export function layerFace(layer: string, state: WorkloadState): string {
  const sign = workloadSign(state);
  const ink = inkOn(sign.background);
  // On the dark face the word asks for a look in the caution colour, as NOT FOUND does on a cue key.
  const wordColour = sign.background === palette.neutral ? palette.caution : ink;
  return keyFace({
    background: sign.background,
    symbol: { shape: sign.symbol, colour: wordColour },
    name: { text: layer, size: 22, colour: ink },
    state: { text: sign.word, size: 28, colour: wordColour, bold: true },
  });
}

/** The first press of a key that takes two: what the second press does, and that it is wanted. */
export function armedLayerFace(operation: 'restart' | 'start' | 'stop'): string {
  const ink = inkOn(palette.warning);
  return keyFace({
    background: palette.warning,
    symbol: { shape: 'warning', colour: ink },
    name: { text: `${operation.toUpperCase()}?`, size: 26, colour: ink, bold: true },
    state: { text: 'PRESS AGAIN', size: 24, colour: ink, bold: true },
  });
}

/** The director answers and lists no layer of that name: a typo, or a layer taken out of the project. */
export function noLayerFace(layer: string): string {
  return keyFace({
    background: palette.neutral,
    symbol: { shape: 'not-found', colour: palette.caution },
    name: { text: layer, size: 22, colour: palette.text },
    state: { text: 'NO LAYER', size: 28, colour: palette.caution, bold: true },
  });
}

/** The director offers no RenderStream (a build or a server without it): nothing to show, nothing to send. */
export function notOfferedFace(layer: string): string {
  return keyFace({
    background: palette.neutral,
    symbol: { shape: 'machine-offline', colour: palette.muted },
    name: { text: layer, size: 22, colour: palette.text },
    state: { text: 'N/A', size: 28, colour: palette.muted, bold: true },
  });
}
