import type { PropertyErrorValue } from '@stagelink/core';
import type { Dialect } from '../options.js';
import { cpu, fps, gpuMemory, gpuProfiler, noise, processMemory, seriesAverage, streamIdOf, type Signal } from './signals.js';

/** What the live-update server needs to know of the session. */
export interface LiveWorld {
  /** How the machine names things: remote monitors, the stream render subsystem. */
  readonly dialect: Dialect;
  /** Hostnames of the session's machines, this one first: each other one has a remote monitor. */
  machineHostnames(): string[];
  /** Whether the machine has taken over a failed machine; undefined when no machine has that uid. */
  hasTakenOverFailedMachine(uid: string): boolean | undefined;
  /** A transport's `brightness`, `volume` or `engaged`, by name (`default`: the first); undefined when there is none. */
  transportProperty(transport: string, key: TransportKey): number | boolean | undefined;
  /** Changes it as the REST endpoints do; a value the transport cannot take is ignored, as servers do. */
  setTransportProperty(transport: string, key: TransportKey, value: number | boolean): void;
}

export type TransportKey = 'brightness' | 'volume' | 'engaged';

/** Evaluates a property at a time; answers a PropertyErrorValue when the property cannot be evaluated. */
export type Evaluator = (nowMs: number) => unknown;

/** Writes a value; answers why not when it cannot (the server then sends an error frame). */
export type Writer = (value: unknown) => string | undefined;

export type Resolution = { found: true; evaluate: Evaluator; write?: Writer } | { found: false; reason: string };

interface Monitor {
  series: string;
  signal: Signal;
}

/** The local monitors of the spec's table, with the series each one has. */
const MONITORS: Record<string, Monitor> = {
  fps: { series: 'Actual', signal: fps },
  CPU: { series: 'Total', signal: cpu },
  GPUMemory: { series: 'Usage(MB)', signal: gpuMemory },
  ProcessMemory: { series: 'Usage (MB)', signal: processMemory },
  GPUProfiler: { series: 'Total', signal: gpuProfiler },
};

/** Stream workloads by id, with their instance count. */
export const WORKLOADS: Record<string, number> = { '1': 3, '2': 2 };

const LOCAL_MONITOR = /^subsystem:MonitoringManager\.findLocalMonitor\("([^"]+)"\)$/;
const REMOTE_MONITOR = /^subsystem:MonitoringManager\.findRemoteMonitor\("([^"]+):(\w+)",\s*"([^"]+)"\)$/;
const MONITORING_MANAGER = 'subsystem:MonitoringManager';
const MACHINE = /^getByUID\((\d+)\)$/;
const TRANSPORT = /^transportManager:(?:default|"((?:[^"\\]|\\.)*)")$/;
const TRANSPORT_PROPERTY = /^object\.(brightness|volume|engaged)$/;

/**
 * Names that differ between the documents and shipping r34 directors: a remote monitor is `<hostname>:svc` in the
 * documents, `<HOSTNAME>:d3` on r34 (listed by `remoteNodes()`), and the stream render subsystem is
 * `StreamRenderSystem` in the documents, `RenderStreamSystem` on r34.
 */
const NAMES: Record<Dialect, { remoteSuffix: string; streamRender: string; listsRemoteNodes: boolean }> = {
  spec: { remoteSuffix: 'svc', streamRender: 'subsystem:StreamRenderSystem', listsRemoteNodes: false },
  r34: { remoteSuffix: 'd3', streamRender: 'subsystem:RenderStreamSystem', listsRemoteNodes: true },
};
const SERIES_AVERAGE = /^object\.seriesAverage\("([^"]*)",\s*(\d+)\)$/;

const NOT_FOUND: Resolution = { found: false, reason: 'Unable to find object' };

/** Resolves an (object, property) pair the way the server evaluates it: object first, then the property. */
export function resolve(object: string, property: string, world: LiveWorld, seed: number): Resolution {
  const local = LOCAL_MONITOR.exec(object);
  if (local) return monitorProperty(MONITORS[local[1] ?? ''], property, seed, streamIdOf(`local:${local[1]}`));
  const names = NAMES[world.dialect];
  const remote = REMOTE_MONITOR.exec(object);
  if (remote) {
    const [, hostname = '', suffix = '', name = ''] = remote;
    if (suffix !== names.remoteSuffix || !world.machineHostnames().includes(hostname)) return NOT_FOUND;
    return monitorProperty(MONITORS[name], property, seed, streamIdOf(`${hostname}:${name}`));
  }
  if (object === MONITORING_MANAGER) return monitoringManagerProperty(property, world);
  const machine = MACHINE.exec(object);
  if (machine) return machineProperty(machine[1] ?? '', property, world);
  if (object === names.streamRender) return { found: true, evaluate: streamRenderProperty(property, seed) };
  const transport = TRANSPORT.exec(object);
  if (transport) return transportProperty(transport[1]?.replace(/\\(.)/g, '$1') ?? 'default', property, world);
  return NOT_FOUND;
}

function monitorProperty(monitor: Monitor | undefined, property: string, seed: number, stream: number): Resolution {
  if (!monitor) return NOT_FOUND;
  const match = SERIES_AVERAGE.exec(property);
  const series = match?.[1];
  const samples = Number(match?.[2]);
  if (!match || series !== monitor.series || samples < 1) {
    const reason = match ? `the monitor has no series "${series}" (it has "${monitor.series}") or no samples asked` : 'unknown property';
    return { found: true, evaluate: () => propertyError(property, reason) };
  }
  return { found: true, evaluate: (nowMs) => seriesAverage(monitor.signal, seed, stream, nowMs, samples) };
}

/** r34 lists the remote nodes it monitors (every machine but itself); the documents have no such property. */
function monitoringManagerProperty(property: string, world: LiveWorld): Resolution {
  const names = NAMES[world.dialect];
  if (property !== 'object.remoteNodes()' || !names.listsRemoteNodes) {
    return { found: true, evaluate: () => propertyError(property, 'unknown property', 'propertyPathError') };
  }
  return { found: true, evaluate: () => world.machineHostnames().slice(1).map((hostname) => `${hostname}:${names.remoteSuffix}`) };
}

function transportProperty(name: string, property: string, world: LiveWorld): Resolution {
  const key = TRANSPORT_PROPERTY.exec(property)?.[1] as TransportKey | undefined;
  if (world.transportProperty(name, key ?? 'engaged') === undefined) return NOT_FOUND;
  if (!key) return { found: true, evaluate: () => propertyError(property, 'unknown property', 'propertyPathError') };
  return {
    found: true,
    evaluate: () => world.transportProperty(name, key),
    write: (value) => {
      const expected = key === 'engaged' ? 'boolean' : 'number';
      if (typeof value !== expected) return `${property} takes a ${expected}`;
      // Stored as a 32-bit float, as the server stores numbers.
      world.setTransportProperty(name, key, typeof value === 'number' ? Math.fround(value) : (value as boolean));
      return undefined;
    },
  };
}

function machineProperty(uid: string, property: string, world: LiveWorld): Resolution {
  if (world.hasTakenOverFailedMachine(uid) === undefined) return NOT_FOUND;
  if (property !== 'object.hasTakenOverFailedMachine()') {
    return { found: true, evaluate: () => propertyError(property, 'unknown property') };
  }
  // Read at every evaluation: a failover during the subscription shows up as a change.
  return { found: true, evaluate: () => world.hasTakenOverFailedMachine(uid) ?? false };
}

const RECEIVE_STATUSES = /^object\.getWorkloadReceiveStatuses\((\d+)\)$/;
const INSTANCES = /^object\.getWorkloadInstances\((\d+)\)$/;
const INSTANCE_HEALTH = /^object\.getWorkloadInstance\((\d+),\s*(\d+)\)\.health\(\)$/;

function streamRenderProperty(property: string, seed: number): Evaluator {
  const receive = RECEIVE_STATUSES.exec(property);
  if (receive) return withWorkload(property, receive[1], (count, id) => (nowMs) => receiveStatuses(id, count, seed, nowMs));
  const instances = INSTANCES.exec(property);
  if (instances) return withWorkload(property, instances[1], (count, id) => (nowMs) => instanceList(id, count, seed, nowMs));
  const health = INSTANCE_HEALTH.exec(property);
  if (health) {
    const index = Number(health[2]);
    return withWorkload(property, health[1], (count, id) =>
      index < count ? (nowMs) => instanceHealth(id, index, seed, nowMs) : () => propertyError(property, `workload ${id} has no instance ${index}`),
    );
  }
  return () => propertyError(property, 'unknown property');
}

function withWorkload(property: string, id: string | undefined, make: (count: number, id: string) => Evaluator): Evaluator {
  const count = WORKLOADS[id ?? ''];
  if (count === undefined) return () => propertyError(property, `no workload ${id}`);
  return make(count, id ?? '');
}

/** Instances are healthy most of the time; now and then one reports a warning for a few seconds. */
function instanceHealth(workload: string, index: number, seed: number, nowMs: number): string {
  const window = Math.floor(nowMs / 4000);
  return noise(seed, streamIdOf(`health:${workload}:${index}`), window) < 0.1 ? 'warning' : 'ok';
}

function instanceList(workload: string, count: number, seed: number, nowMs: number) {
  return Array.from({ length: count }, (_, index) => ({ index, health: instanceHealth(workload, index, seed, nowMs) }));
}

function receiveStatuses(workload: string, count: number, seed: number, nowMs: number) {
  return Array.from({ length: count }, (_, index) => ({
    index,
    receiving: instanceHealth(workload, index, seed, nowMs) === 'ok',
  }));
}

function propertyError(property: string, reason: string, errorType = 'EvaluationError'): PropertyErrorValue {
  return { errorType, message: `Cannot evaluate ${property}: ${reason}` };
}
