import { InvalidInputError } from '../errors.js';

/** What to watch: an object expression, its property expressions and how often the server sends them. */
export interface LiveRequest {
  object: string;
  properties: string[];
  /** Interval of updates; 0 means every frame, which is never right for a monitor. Default 100 ms. */
  updateFrequencyMs?: number;
  /**
   * Other names of `object` on other builds: every name is tried and the one that answers is kept (the stream
   * render subsystem is `RenderStreamSystem` on shipping directors, `StreamRenderSystem` in the documents).
   */
  otherObjects?: readonly string[];
  /**
   * A remote machine's monitor: the client builds the object from the node the director lists for this
   * hostname in `object.remoteNodes()` (`ACTOR01:d3` on shipping builds), and keeps `object` (the documents'
   * `<hostname>:svc`) for a server without that list.
   */
  remoteMonitor?: { hostname: string; objectFor: (node: string) => string };
}

/** Monitors update every 100 ms, as the API documents' examples do; never 0 (every frame). */
const MONITOR_INTERVAL_MS = 100;

const monitor = (object: string, series: string): LiveRequest => ({
  object: `subsystem:MonitoringManager.${object}`,
  properties: [`object.seriesAverage(${JSON.stringify(series)}, 1)`],
  updateFrequencyMs: MONITOR_INTERVAL_MS,
});

const streamRender = (property: string): LiveRequest => ({
  object: 'subsystem:RenderStreamSystem',
  otherObjects: ['subsystem:StreamRenderSystem'],
  properties: [property],
  updateFrequencyMs: MONITOR_INTERVAL_MS,
});

const remoteMonitor = (hostname: string, name: string, series: string): LiveRequest => {
  const objectFor = (node: string) => monitor(`findRemoteMonitor(${JSON.stringify(node)}, ${JSON.stringify(name)})`, series).object;
  return { ...monitor(`findRemoteMonitor(${JSON.stringify(`${hostname}:svc`)}, ${JSON.stringify(name)})`, series), remoteMonitor: { hostname, objectFor } };
};

/**
 * Properties of a transport's live object. Shipping directors name it `transportmanager:<name with spaces as _>`,
 * unquoted, and do not know the documents' quoted `transportManager:"<name>"`: both are asked, the first that
 * answers is kept.
 */
export function transportRequest(transport: string, properties: string[], updateFrequencyMs = MONITOR_INTERVAL_MS): LiveRequest {
  const name = checkTransportName(transport);
  return { object: transportObject(name), otherObjects: [`transportManager:${JSON.stringify(name)}`], properties, updateFrequencyMs };
}

/** A transport's property, written with `set` as well as read. */
const transportProperty = (transport: string, property: string): LiveRequest => transportRequest(transport, [`object.${property}`]);

/**
 * The expressions of the API documents' table of live values. Arguments are checked so that no hostname or id can
 * change the expression around it.
 */
export const livePresets = {
  localFps: () => monitor('findLocalMonitor("fps")', 'Actual'),
  /** Any case of the hostname; the monitor node is resolved from the director (see LiveRequest.remoteMonitor). */
  remoteFps: (hostname: string) => remoteMonitor(checkHostname(hostname), 'fps', 'Actual'),
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
  /** A transport's brightness (0..1); `set` on the subscription changes it smoothly, without a REST call. */
  transportBrightness: (transport: string) => transportProperty(transport, 'brightness'),
  /** A transport's volume (0..1), writable like transportBrightness. */
  transportVolume: (transport: string) => transportProperty(transport, 'volume'),
} as const;

export type LivePresetName = keyof typeof livePresets;

/**
 * What to watch for a machine's FPS on the stream of `director` (the machine directing now, when known): a
 * director's own FPS is its local monitor, since it lists only the other machines as remote nodes; every other
 * machine's is a remote monitor, named as the director's dialect names it. No `hostname` means the machine the
 * stream comes from. Ask again when the director moves: the same machine needs the other monitor then.
 */
export function machineFps(hostname: string | undefined, director: string | undefined): LiveRequest {
  if (hostname === undefined || hostname.toLowerCase() === director?.toLowerCase()) return livePresets.localFps();
  return livePresets.remoteFps(hostname);
}

/**
 * Which machine's FPS a live object is, read back from the expressions `localFps` and `remoteFps` make: `local`
 * for the machine subscribed to, the hostname of a remote monitor (its node as documented, `ACTOR01:svc`, or as
 * shipping directors list it, `ACTOR01:d3`), undefined for any other object.
 */
export function fpsMachineOf(object: string): { local: true } | { hostname: string } | undefined {
  const remote = /findRemoteMonitor\("([^":]+)(?::[^"]*)?",\s*"fps"\)/.exec(object)?.[1];
  if (remote !== undefined) return { hostname: remote };
  return /findLocalMonitor\("fps"\)/.test(object) ? { local: true } : undefined;
}

function checkHostname(hostname: string): string {
  if (typeof hostname !== 'string' || !/^[A-Za-z0-9.-]+$/.test(hostname)) {
    throw new InvalidInputError(`"${String(hostname)}" is not a machine hostname (letters, digits, dots and dashes).`);
  }
  return hostname;
}

/**
 * A transport's live object as shipping directors name it: `transportmanager:` and the name with each run of
 * spaces as one `_` (`Main Stage` is `transportmanager:Main_Stage`; `default` is the default transport).
 */
export function transportObject(name: string): string {
  return `transportmanager:${checkTransportName(name).trim().replace(/\s+/g, '_')}`;
}

/**
 * Letters, digits, spaces, `_` and `-`: a name written unquoted into the object expression, where a quote, dot,
 * bracket, colon or comma would change what the expression means.
 */
const TRANSPORT_NAME = /^[\p{L}\p{N}_\- ]+$/u;

function checkTransportName(name: string): string {
  if (typeof name !== 'string' || name.trim() === '') throw new InvalidInputError(`${JSON.stringify(name)} is not a transport name.`);
  if (!TRANSPORT_NAME.test(name.trim())) {
    throw new InvalidInputError(
      `The transport ${JSON.stringify(name)} cannot be watched on the live stream: there a transport is named without quotes, so its name may hold only letters, digits, spaces, "_" and "-". Rename the transport, or set its level with transport.setVolume / setBrightness.`,
    );
  }
  return name;
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
