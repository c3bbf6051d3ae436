import type { Dialect } from '../options.js';

/** How one dialect names things on the live stream. */
export interface LiveNames {
  /** A remote monitor's node is `<hostname>:<remoteSuffix>`. */
  readonly remoteSuffix: string;
  /** The stream render subsystem's object. */
  readonly streamRender: string;
  /** Whether `subsystem:MonitoringManager` answers `object.remoteNodes()`; only the other machines are listed. */
  readonly listsRemoteNodes: boolean;
  /**
   * Whether a transport's object may name it quoted, as the documents do (`transportManager:"Main Stage"`). Every
   * dialect knows the unquoted form with spaces as `_` (`transportmanager:Main_Stage`); shipping directors know
   * only that one.
   */
  readonly quotedTransports: boolean;
  /** The property error of `getWorkloadInstance(id, index).health()` when no such instance runs. */
  readonly missingInstance: { errorType: string; reason: (workload: string, index: number) => string };
}

/**
 * The one place that knows each dialect's words. The documents name a remote monitor `<hostname>:svc` and the
 * stream render subsystem `StreamRenderSystem`; shipping r34 directors say `<HOSTNAME>:d3` (listed by
 * `remoteNodes()`, the local machine left out) and `RenderStreamSystem`, and answer a workload instance that
 * does not run as a property path error, "out of range".
 */
export const LIVE_NAMES: Record<Dialect, LiveNames> = {
  spec: {
    remoteSuffix: 'svc',
    streamRender: 'subsystem:StreamRenderSystem',
    listsRemoteNodes: false,
    quotedTransports: true,
    missingInstance: { errorType: 'EvaluationError', reason: (workload, index) => `workload ${workload} has no instance ${index}` },
  },
  r34: {
    remoteSuffix: 'd3',
    streamRender: 'subsystem:RenderStreamSystem',
    listsRemoteNodes: true,
    quotedTransports: false,
    missingInstance: { errorType: 'propertyPathError', reason: (workload, index) => `instance ${index} of workload ${workload} is out of range` },
  },
};

/**
 * What a dialect says about an object that another dialect (or no build) has: a name that will never exist.
 * It must not read "Unable to find object", which clients take for a project still loading and retry.
 */
export function unknownObject(object: string): string {
  return `Unknown object ${object}`;
}

/** A transport's name in its live object on shipping directors: spaces as `_` (`Main Stage` is `Main_Stage`). */
export function transportObjectName(name: string): string {
  return name.trim().replace(/\s+/g, '_');
}
