import { InvalidInputError } from '../errors.js';
import { livePresets, type LivePresetName, type LiveRequest } from './presets.js';

/** A value a preset is built from, by the name settings give it, and what it is in words. */
export interface PresetParameter {
  name: 'machine' | 'workload' | 'instance' | 'transport';
  what: string;
}

const HOSTNAME: PresetParameter = { name: 'machine', what: 'the hostname of the machine to watch' };
const ACTOR_UID: PresetParameter = { name: 'machine', what: 'the uid of the actor machine' };
const WORKLOAD: PresetParameter = { name: 'workload', what: 'a stream workload id' };
const INSTANCE: PresetParameter = { name: 'instance', what: 'an instance index (0, 1, 2, ...)' };
const TRANSPORT: PresetParameter = { name: 'transport', what: 'the name of the transport' };

/** The values each live preset is built from, in the order it takes them; an empty list for those that take none. */
export const LIVE_PRESET_PARAMETERS: Readonly<Record<LivePresetName, readonly PresetParameter[]>> = {
  localFps: [],
  remoteFps: [HOSTNAME],
  cpu: [],
  gpuMemory: [],
  processMemory: [],
  gpuProfiler: [],
  failoverTakeover: [ACTOR_UID],
  workloadReceiveStatuses: [WORKLOAD],
  workloadInstances: [WORKLOAD],
  instanceHealth: [WORKLOAD, INSTANCE],
  transportBrightness: [TRANSPORT],
  transportVolume: [TRANSPORT],
};

export function isLivePresetName(value: unknown): value is LivePresetName {
  return typeof value === 'string' && Object.hasOwn(livePresets, value);
}

/**
 * The request of a preset named by settings, its parameters read by `read` (blank when undefined or empty text).
 * Throws what to set when the name is no preset or a parameter is missing.
 */
export function livePresetRequest(name: string, read: (parameter: PresetParameter['name']) => unknown): LiveRequest {
  if (!isLivePresetName(name)) {
    throw new InvalidInputError(`"${name}" is not a live-update preset; use one of ${Object.keys(livePresets).join(', ')}.`);
  }
  const values = LIVE_PRESET_PARAMETERS[name].map((parameter) => {
    const value = read(parameter.name);
    const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
    if (text === '') throw new InvalidInputError(`The ${name} preset needs ${parameter.what}.`);
    return parameter.name === 'instance' ? Number(text) : text;
  });
  const build = livePresets[name] as (...parameters: (string | number)[]) => LiveRequest;
  return build(...values);
}
