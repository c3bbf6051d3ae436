import { InvalidInputError, livePresets, type LivePresetName, type LiveRequest } from '@stagelink/core';
import type { NodeDef } from '../../shared/node-red.js';

/** Preset names are core's `livePresets`; `custom` takes the object and property expressions from the node. */
export type LiveSource = LivePresetName | 'custom';

/** Never 0 ("every frame", docs/api-notes.md) and never faster than a show display can use. */
export const MIN_INTERVAL_MS = 20;

/** Reads the node's settings into a core LiveRequest. Throws what to fix when a setting is missing or wrong. */
export function liveRequestOf(def: NodeDef): LiveRequest {
  const source = (typeof def.preset === 'string' && def.preset !== '' ? def.preset : 'localFps') as LiveSource;
  const request = source === 'custom' ? customRequest(def) : presetRequest(source, def);
  const interval = Number(def.interval);
  if (def.interval !== undefined && def.interval !== '' && Number.isFinite(interval) && interval > 0) {
    request.updateFrequencyMs = Math.max(MIN_INTERVAL_MS, Math.round(interval));
  }
  return request;
}

function presetRequest(name: string, def: NodeDef): LiveRequest {
  const text = (key: string, what: string): string => {
    const value = def[key];
    if (typeof value !== 'string' || value.trim() === '') throw new InvalidInputError(`The ${name} preset needs ${what}.`);
    return value.trim();
  };
  switch (name as LivePresetName) {
    case 'localFps':
      return livePresets.localFps();
    case 'cpu':
      return livePresets.cpu();
    case 'gpuMemory':
      return livePresets.gpuMemory();
    case 'processMemory':
      return livePresets.processMemory();
    case 'gpuProfiler':
      return livePresets.gpuProfiler();
    case 'remoteFps':
      return livePresets.remoteFps(text('machine', 'the hostname of the machine to watch'));
    case 'failoverTakeover':
      return livePresets.failoverTakeover(text('machine', 'the uid of the actor machine'));
    case 'workloadReceiveStatuses':
      return livePresets.workloadReceiveStatuses(text('workload', 'a stream workload id'));
    case 'workloadInstances':
      return livePresets.workloadInstances(text('workload', 'a stream workload id'));
    case 'transportBrightness':
      return livePresets.transportBrightness(text('transport', 'the name of the transport'));
    case 'transportVolume':
      return livePresets.transportVolume(text('transport', 'the name of the transport'));
    case 'instanceHealth': {
      const index = Number(text('instance', 'an instance index (0, 1, 2, ...)'));
      return livePresets.instanceHealth(text('workload', 'a stream workload id'), index);
    }
    default:
      throw new InvalidInputError(`"${name}" is not a live-update preset; use one of ${Object.keys(livePresets).join(', ')} or custom.`);
  }
}

function customRequest(def: NodeDef): LiveRequest {
  const object = typeof def.object === 'string' ? def.object.trim() : '';
  // One expression per line: expressions contain commas (`seriesAverage("Actual", 1)`), so lines separate them.
  const properties = (typeof def.properties === 'string' ? def.properties : '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (object === '') throw new InvalidInputError('A custom live update needs an object expression, e.g. subsystem:MonitoringManager.findLocalMonitor("fps").');
  if (properties.length === 0) throw new InvalidInputError('A custom live update needs at least one property expression, one per line.');
  return { object, properties, updateFrequencyMs: 100 };
}
