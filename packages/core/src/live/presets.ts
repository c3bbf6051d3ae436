import { InvalidInputError } from '../errors.js';

/** What to watch: an object expression, its property expressions and how often the server sends them. */
export interface LiveRequest {
  object: string;
  properties: string[];
  /** Interval of updates; 0 means every frame, which is never right for a monitor. Default 100 ms. */
  updateFrequencyMs?: number;
}

/** Monitors update at 100 ms in the spec's examples (rule 4). */
const MONITOR_INTERVAL_MS = 100;

const monitor = (object: string, series: string): LiveRequest => ({
  object: `subsystem:MonitoringManager.${object}`,
  properties: [`object.seriesAverage(${JSON.stringify(series)}, 1)`],
  updateFrequencyMs: MONITOR_INTERVAL_MS,
});

const streamRender = (property: string): LiveRequest => ({
  object: 'subsystem:StreamRenderSystem',
  properties: [property],
  updateFrequencyMs: MONITOR_INTERVAL_MS,
});

/**
 * The expressions of the spec's table (section 4.12). Arguments are checked so that no hostname or id can
 * change the expression around it.
 */
export const livePresets = {
  localFps: () => monitor('findLocalMonitor("fps")', 'Actual'),
  /** The remote monitor name is the target's hostname followed by `:svc` (rule 5). */
  remoteFps: (hostname: string) => monitor(`findRemoteMonitor(${JSON.stringify(`${checkHostname(hostname)}:svc`)}, "fps")`, 'Actual'),
  cpu: () => monitor('findLocalMonitor("CPU")', 'Total'),
  gpuMemory: () => monitor('findLocalMonitor("GPUMemory")', 'Usage(MB)'),
  processMemory: () => monitor('findLocalMonitor("ProcessMemory")', 'Usage (MB)'),
  gpuProfiler: () => monitor('findLocalMonitor("GPUProfiler")', 'Total'),
  failoverTakeover: (machineUid: string): LiveRequest => ({
    object: `getByUID(${checkUid(machineUid)})`,
    properties: ['object.hasTakenOverFailedMachine()'],
    updateFrequencyMs: MONITOR_INTERVAL_MS,
  }),
  workloadReceiveStatuses: (workloadId: string | number) =>
    streamRender(`object.getWorkloadReceiveStatuses(${checkUid(workloadId)})`),
  workloadInstances: (workloadId: string | number) => streamRender(`object.getWorkloadInstances(${checkUid(workloadId)})`),
  instanceHealth: (workloadId: string | number, instanceIndex: number) =>
    streamRender(`object.getWorkloadInstance(${checkUid(workloadId)}, ${checkIndex(instanceIndex)}).health()`),
} as const;

export type LivePresetName = keyof typeof livePresets;

function checkHostname(hostname: string): string {
  if (typeof hostname !== 'string' || !/^[A-Za-z0-9.-]+$/.test(hostname)) {
    throw new InvalidInputError(`"${String(hostname)}" is not a machine hostname (letters, digits, dots and dashes).`);
  }
  return hostname;
}

function checkUid(uid: string | number): string {
  const text = String(uid);
  if (!/^\d+$/.test(text)) throw new InvalidInputError(`"${text}" is not a uid: uids are decimal digits.`);
  return text;
}

function checkIndex(index: number): number {
  if (!Number.isInteger(index) || index < 0) throw new InvalidInputError(`${index} is not an instance index (0, 1, 2, ...).`);
  return index;
}
