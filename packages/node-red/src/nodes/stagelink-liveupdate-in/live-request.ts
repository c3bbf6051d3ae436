import { InvalidInputError, isLivePresetName, livePresetRequest, livePresets, type LivePresetName, type LiveRequest } from '@stagelink/core';
import { sayingError } from '../../shared/error-words.js';
import type { NodeDef } from '../../shared/node-red.js';

/** Preset names are core's `livePresets`; `custom` takes the object and property expressions from the node. */
export type LiveSource = LivePresetName | 'custom';

/** Never 0 ("every frame", docs/api-notes.md) and never faster than a show display can use. */
export const MIN_INTERVAL_MS = 20;

/** Reads the node's settings into a core LiveRequest. Throws what to fix when a setting is missing or wrong. */
export function liveRequestOf(def: NodeDef): LiveRequest {
  const source = typeof def.preset === 'string' && def.preset !== '' ? def.preset : 'localFps';
  if (source !== 'custom' && !isLivePresetName(source)) {
    throw sayingError(InvalidInputError, 'error.notPreset', { value: source, choices: Object.keys(livePresets).join(', ') });
  }
  const request = source === 'custom' ? customRequest(def) : livePresetRequest(source, (parameter) => def[parameter]);
  const interval = Number(def.interval);
  if (def.interval !== undefined && def.interval !== '' && Number.isFinite(interval) && interval > 0) {
    request.updateFrequencyMs = Math.max(MIN_INTERVAL_MS, Math.round(interval));
  }
  return request;
}

function customRequest(def: NodeDef): LiveRequest {
  const object = typeof def.object === 'string' ? def.object.trim() : '';
  // One expression per line: expressions contain commas (`seriesAverage("Actual", 1)`), so lines separate them.
  const properties = (typeof def.properties === 'string' ? def.properties : '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (object === '') throw sayingError(InvalidInputError, 'error.customObject');
  if (properties.length === 0) throw sayingError(InvalidInputError, 'error.customProperties');
  return { object, properties, updateFrequencyMs: 100 };
}
