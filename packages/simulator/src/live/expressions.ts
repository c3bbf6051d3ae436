import type { PropertyErrorValue } from '@stagelink/core';
import type { Dialect } from '../options.js';
import { PLAYMODES, type Playmode } from '../state/playmodes.js';
import { LIVE_NAMES, transportObjectName, unknownObject, type LiveNames } from './dialect-names.js';
import type { LiveLayers, LayerPosition } from './layers.js';
import { cpu, fps, gpuMemory, gpuProfiler, noise, processMemory, seriesAverage, streamIdOf, type Signal } from './signals.js';
import { written } from './writes.js';

/** What the live-update server needs to know of the session. */
export interface LiveWorld {
  /** How the machine names things: remote monitors, the stream render subsystem (see LIVE_NAMES). */
  readonly dialect: Dialect;
  /** Hostnames of the session's machines, this one first: each other one has a remote monitor. */
  machineHostnames(): string[];
  /** The FPS fixed for a machine with the `machineFps` control action; undefined when its FPS runs free. */
  fixedFps(hostname: string): number | undefined;
  /** Whether the machine has taken over a failed machine; undefined when no machine has that uid. */
  hasTakenOverFailedMachine(uid: string): boolean | undefined;
  /** A transport by name (`default`: the first); undefined when there is none. */
  transport(name: string): LiveTransport | undefined;
  /** The names of the session's transports now. */
  transportNames(): string[];
  /** Where a transport's playhead is now (`default`: the first); undefined when there is no such transport. */
  transportPlayer(name: string): LivePlayer | undefined;
  /** Changes a transport as the REST endpoints do; a value the transport cannot take is ignored, as servers do. */
  setTransportProperty(transport: string, key: TransportKey, value: number | boolean): void;
  /** The layers of the session now (a reset replaces them). */
  layers(): LiveLayers;
}

/** The part of a transport the stream reads and writes: the same values `transport/activetransport` reports. */
export interface LiveTransport {
  readonly uid: string;
  readonly brightness: number;
  readonly volume: number;
  readonly engaged: boolean;
  readonly receivingTimecode: boolean;
}

/** A transport's player: the track it is on, seconds into it, and how it plays. */
export interface LivePlayer {
  readonly track: { readonly uid: string; readonly name: string };
  readonly time: number;
  readonly playmode: Playmode;
}

export type TransportKey = 'brightness' | 'volume' | 'engaged';

/** Evaluates a property at a time; answers a PropertyErrorValue when the property cannot be evaluated. */
export type Evaluator = (nowMs: number) => unknown;

/** Writes a value; answers why not when its JSON type does not fit (the server then closes the socket). */
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

/** Stream workloads by id, with the number of instances running: workload 3 is stopped. */
export const WORKLOADS: Record<string, number> = { '1': 3, '2': 2, '3': 0 };

const LOCAL_MONITOR = /^subsystem:MonitoringManager\.findLocalMonitor\("([^"]+)"\)$/;
const REMOTE_MONITOR = /^subsystem:MonitoringManager\.findRemoteMonitor\("([^"]+)",\s*"([^"]+)"\)$/;
const MONITORING_MANAGER = 'subsystem:MonitoringManager';
const SUBSYSTEM = /^subsystem:\w+$/;
const MACHINE = /^getByUID\((\d+)\)$/;
const QUOTED = '"((?:[^"\\\\]|\\\\.)*)"';
/** A transport as shipping directors name it: unquoted, spaces as `_` (`transportmanager:Main_Stage`, `transportmanager:default`). */
const TRANSPORT = /^transportmanager:([^\s"().,:]+)$/i;
/** A transport as the API documents name it, quoted (`transportManager:"Main Stage"`): shipping directors do not know it. */
const QUOTED_TRANSPORT = new RegExp(`^transportManager:${QUOTED}$`);
const LAYER = new RegExp(`^layer:${QUOTED}$`);
const TRANSPORT_PROPERTY = /^object\.(brightness|volume|engaged)$/;
const SERIES_AVERAGE = /^object\.seriesAverage\("([^"]*)",\s*(\d+)\)$/;

/** An object that may yet appear: a project still loading, a machine not yet in the session. Clients retry it. */
const NOT_FOUND: Resolution = { found: false, reason: 'Unable to find object' };

/** An object this dialect never has (the other dialect's name): clients must not wait for it. */
const unknown = (object: string): Resolution => ({ found: false, reason: unknownObject(object) });

const unquote = (text: string): string => text.replace(/\\(.)/g, '$1');

/** Resolves an (object, property) pair the way the server evaluates it: object first, then the property. */
export function resolve(object: string, property: string, world: LiveWorld, seed: number): Resolution {
  const names = LIVE_NAMES[world.dialect];
  const local = LOCAL_MONITOR.exec(object);
  if (local) return monitorProperty(monitorOf(local[1] ?? '', () => world.machineHostnames()[0] ?? '', world), property, seed, streamIdOf(`local:${local[1]}`));
  const remote = REMOTE_MONITOR.exec(object);
  if (remote) return remoteMonitorProperty(object, remote[1] ?? '', remote[2] ?? '', property, world, seed);
  if (object === MONITORING_MANAGER) return monitoringManagerProperty(property, world);
  const machine = MACHINE.exec(object);
  if (machine) return machineProperty(machine[1] ?? '', property, world);
  if (object === names.streamRender) return { found: true, evaluate: streamRenderProperty(property, seed, names) };
  if (SUBSYSTEM.test(object)) return unknown(object);
  const transport = TRANSPORT.exec(object);
  if (transport) return transportProperty(transportNamed(transport[1] ?? '', world), property, world);
  const quoted = QUOTED_TRANSPORT.exec(object);
  if (quoted) return names.quotedTransports ? transportProperty(unquote(quoted[1] ?? ''), property, world) : unknown(object);
  const layer = LAYER.exec(object);
  if (layer) return layerProperty(unquote(layer[1] ?? ''), property, world);
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

/**
 * A remote monitor, by its node name exactly as the dialect writes it. The other dialect's suffix is an unknown
 * object; a node of the right shape that is not monitored (yet) is not found.
 */
function remoteMonitorProperty(object: string, node: string, name: string, property: string, world: LiveWorld, seed: number): Resolution {
  const separator = node.lastIndexOf(':');
  const hostname = node.slice(0, separator);
  if (separator < 0 || node.slice(separator + 1) !== LIVE_NAMES[world.dialect].remoteSuffix) return unknown(object);
  if (!monitoredNodes(world).includes(node)) return NOT_FOUND;
  return monitorProperty(monitorOf(name, () => hostname, world), property, seed, streamIdOf(`${hostname}:${name}`));
}

/**
 * A machine's monitor: once a test fixed its FPS, it reads that value locally and remotely alike. `hostname` is
 * asked at every read: the local monitor is whichever machine directs now.
 */
function monitorOf(name: string, hostname: () => string, world: LiveWorld): Monitor | undefined {
  const monitor = MONITORS[name];
  if (!monitor || name !== 'fps') return monitor;
  return { ...monitor, signal: (seed, stream, bucket) => world.fixedFps(hostname()) ?? monitor.signal(seed, stream, bucket) };
}

/**
 * The nodes a remote monitor can name. A director that lists its remote nodes monitors exactly those (every
 * machine but itself); the documents give a monitor to every machine of the session.
 */
function monitoredNodes(world: LiveWorld): string[] {
  const names = LIVE_NAMES[world.dialect];
  const hostnames = names.listsRemoteNodes ? world.machineHostnames().slice(1) : world.machineHostnames();
  return hostnames.map((hostname) => `${hostname}:${names.remoteSuffix}`);
}

/** r34 lists the remote nodes it monitors; the documents have no such property. */
function monitoringManagerProperty(property: string, world: LiveWorld): Resolution {
  if (property !== 'object.remoteNodes()' || !LIVE_NAMES[world.dialect].listsRemoteNodes) {
    return { found: true, evaluate: () => propertyError(property, 'unknown property', 'propertyPathError') };
  }
  return { found: true, evaluate: () => monitoredNodes(world) };
}

/** The transport an unquoted object names: `default`, or the one whose name, spaces as `_`, it is. */
function transportNamed(objectName: string, world: LiveWorld): string | undefined {
  if (objectName === 'default') return 'default';
  return world.transportNames().find((name) => transportObjectName(name) === objectName);
}

/** `object.player.playMode.state` as shipping directors number the playmodes. */
const PLAY_MODE_STATE: Readonly<Record<Playmode, number>> = {
  [PLAYMODES.play]: 0,
  [PLAYMODES.playSection]: 1,
  [PLAYMODES.loopSection]: 2,
  [PLAYMODES.stop]: 3,
};

/** What `str(object.tcStatusString)` reads: the simulator's words, as no recording shows the real ones. */
const TIMECODE_STATUS = { receiving: 'Receiving timecode', none: 'No timecode' } as const;

/** Read-only transport properties, from the transport and its player now. uids as `str(...)` keep every digit. */
const TRANSPORT_READINGS: Readonly<Record<string, (transport: LiveTransport, player: LivePlayer) => unknown>> = {
  // A JSON number loses digits past 2^53, as on the wire.
  'object.uid': (transport) => Number(transport.uid),
  'str(object.uid)': (transport) => transport.uid,
  'object.player.tRender': (_, player) => player.time,
  'object.player.playing': (_, player) => player.playmode !== PLAYMODES.stop,
  'object.player.playMode.state': (_, player) => PLAY_MODE_STATE[player.playmode],
  'object.player.track.uid': (_, player) => Number(player.track.uid),
  'str(object.player.track.uid)': (_, player) => player.track.uid,
  'str(object.player.track.description)': (_, player) => player.track.name,
  'str(object.tcStatusString)': (transport) => (transport.receivingTimecode ? TIMECODE_STATUS.receiving : TIMECODE_STATUS.none),
};

/**
 * `brightness`, `volume` (0 to 1) and `engaged`, read and written as the REST endpoints do; the uid, the player
 * (playhead, playmode, track) and the timecode status, read only.
 */
function transportProperty(name: string | undefined, property: string, world: LiveWorld): Resolution {
  if (name === undefined || !world.transport(name)) return NOT_FOUND;
  const reading = TRANSPORT_READINGS[property];
  if (reading) {
    return {
      found: true,
      evaluate: () => {
        const transport = world.transport(name);
        const player = world.transportPlayer(name);
        return transport && player ? reading(transport, player) : propertyError(property, `transport "${name}" is gone`);
      },
    };
  }
  const key = TRANSPORT_PROPERTY.exec(property)?.[1] as TransportKey | undefined;
  if (!key) return { found: true, evaluate: () => propertyError(property, 'unknown property', 'propertyPathError') };
  return {
    found: true,
    evaluate: () => world.transport(name)?.[key],
    write: (value) => {
      const result = written(world.transport(name)?.[key], value, property);
      if (!result.fits) return result.reason;
      world.setTransportProperty(name, key, result.value as number | boolean);
      return undefined;
    },
  };
}

/** A layer's `position` `{x, y}`: written as a whole or in part (`{"x": 0.01}` moves only x). */
function layerProperty(name: string, property: string, world: LiveWorld): Resolution {
  if (!world.layers().position(name)) return NOT_FOUND;
  if (property !== 'object.position') return { found: true, evaluate: () => propertyError(property, 'unknown property', 'propertyPathError') };
  return {
    found: true,
    evaluate: () => world.layers().position(name),
    write: (value) => {
      const result = written(world.layers().position(name), value, property);
      if (!result.fits) return result.reason;
      world.layers().setPosition(name, result.value as LayerPosition);
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

function streamRenderProperty(property: string, seed: number, names: LiveNames): Evaluator {
  const receive = RECEIVE_STATUSES.exec(property);
  if (receive) return withWorkload(property, receive[1], (count, id) => (nowMs) => receiveStatuses(id, count, seed, nowMs));
  const instances = INSTANCES.exec(property);
  if (instances) return withWorkload(property, instances[1], (count, id) => (nowMs) => instanceList(id, count, seed, nowMs));
  const health = INSTANCE_HEALTH.exec(property);
  if (health) {
    const index = Number(health[2]);
    const { errorType, reason } = names.missingInstance;
    return withWorkload(property, health[1], (count, id) =>
      index < count ? (nowMs) => instanceHealth(id, index, seed, nowMs) : () => propertyError(property, reason(id, index), errorType),
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
