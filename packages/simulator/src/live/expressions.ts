import type { PropertyErrorValue } from '@stagelink/core';
import { cpu, fps, gpuMemory, gpuProfiler, noise, processMemory, seriesAverage, streamIdOf, type Signal } from './signals.js';

/** What the live-update server needs to know of the session. */
export interface LiveWorld {
  /** Hostnames of the session's machines: each has a remote monitor `<hostname>:svc`. */
  machineHostnames(): string[];
  /** Whether the machine has taken over a failed machine; undefined when no machine has that uid. */
  hasTakenOverFailedMachine(uid: string): boolean | undefined;
}

/** Evaluates a property at a time; answers a PropertyErrorValue when the property cannot be evaluated. */
export type Evaluator = (nowMs: number) => unknown;

export type Resolution = { found: true; evaluate: Evaluator } | { found: false; reason: string };

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
const REMOTE_MONITOR = /^subsystem:MonitoringManager\.findRemoteMonitor\("([^"]+):svc",\s*"([^"]+)"\)$/;
const MACHINE = /^getByUID\((\d+)\)$/;
const STREAM_RENDER = 'subsystem:StreamRenderSystem';
const SERIES_AVERAGE = /^object\.seriesAverage\("([^"]*)",\s*(\d+)\)$/;

const NOT_FOUND: Resolution = { found: false, reason: 'Unable to find object' };

/** Resolves an (object, property) pair the way the server evaluates it: object first, then the property. */
export function resolve(object: string, property: string, world: LiveWorld, seed: number): Resolution {
  const local = LOCAL_MONITOR.exec(object);
  if (local) return monitorProperty(MONITORS[local[1] ?? ''], property, seed, streamIdOf(`local:${local[1]}`));
  const remote = REMOTE_MONITOR.exec(object);
  if (remote) {
    const [, hostname = '', name = ''] = remote;
    if (!world.machineHostnames().includes(hostname)) return NOT_FOUND;
    return monitorProperty(MONITORS[name], property, seed, streamIdOf(`${hostname}:${name}`));
  }
  const machine = MACHINE.exec(object);
  if (machine) return machineProperty(machine[1] ?? '', property, world);
  if (object === STREAM_RENDER) return { found: true, evaluate: streamRenderProperty(property, seed) };
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

function propertyError(property: string, reason: string): PropertyErrorValue {
  return { errorType: 'EvaluationError', message: `Cannot evaluate ${property}: ${reason}` };
}
