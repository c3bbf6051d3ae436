import type { FlowNode } from './admin-api.js';
import { ACK, COLLECT_GARBAGE, FAILED, liveRecorder, OBSERVED, readyAnswer, STATUS_RECORDER, UNPACK } from './function-code.js';

/**
 * Flows the suite deploys. A probe is one node under test behind its own endpoint:
 *
 *   http in POST /hardening/<probe> → unpack → node under test → ack → http response
 *   catch (whole tab) → failed → http response
 *
 * so every command posted gets exactly one answer, `ack` or `error`, or none: a silent loss. A live probe is
 * a liveupdate-in node whose values and errors are recorded for `GET /hardening/observed`.
 */

export interface Probe {
  /** Also the path of its endpoint; unique across the deployed flows. */
  id: string;
  /** The node under test: type and settings (id, z and wires are filled in). */
  node: Record<string, unknown> & { type: string };
}

export interface TabOptions {
  tab: string;
  generation: number;
  probes?: readonly Probe[];
  liveProbes?: readonly Probe[];
  /** Debug nodes that print every output and error to the log (scanned for secrets). */
  debugToLog?: boolean;
  /** The node that answers `GET /hardening/observed` (one per deployment). */
  observed?: boolean;
  /** Record every node's status for /observed (default true). */
  recordStatuses?: boolean;
}

const layout = { x: 200, y: 40 };

function fn(id: string, tab: string, name: string, func: string, wires: string[][]): FlowNode {
  return { id, type: 'function', z: tab, name, func, outputs: 1, noerr: 0, initialize: '', finalize: '', libs: [], ...layout, wires };
}

function httpIn(id: string, tab: string, url: string, method: 'get' | 'post', next: string): FlowNode {
  return { id, type: 'http in', z: tab, name: '', url, method, upload: false, swaggerDoc: '', ...layout, wires: [[next]] };
}

function debug(id: string, tab: string): FlowNode {
  return { id, type: 'debug', z: tab, name: '', active: true, tosidebar: true, console: true, tostatus: false, complete: 'true', targetType: 'full', ...layout, wires: [] };
}

/** Everything one tab needs besides its probes: the response, catch, status and readiness nodes. */
function frame(options: TabOptions): FlowNode[] {
  const { tab, generation } = options;
  const nodes: FlowNode[] = [
    { id: tab, type: 'tab', label: `hardening ${tab}`, disabled: false, info: '' },
    { id: `${tab}-response`, type: 'http response', z: tab, name: '', statusCode: '', headers: {}, ...layout, wires: [] },
    { id: `${tab}-catch`, type: 'catch', z: tab, name: '', scope: null, uncaught: false, ...layout, wires: [[`${tab}-failed`, ...(options.debugToLog ? [`${tab}-debug`] : [])]] },
    fn(`${tab}-failed`, tab, 'failed', FAILED, [[`${tab}-response`]]),
    httpIn(`${tab}-ready-in`, tab, `/hardening/ready/${tab}`, 'get', `${tab}-ready`),
    // The name changes with the generation, so a "modified nodes" deploy restarts it too.
    fn(`${tab}-ready`, tab, `ready ${generation}`, readyAnswer(generation), [[`${tab}-response`]]),
  ];
  if (options.recordStatuses !== false) {
    nodes.push({ id: `${tab}-status`, type: 'status', z: tab, name: '', scope: null, ...layout, wires: [[`${tab}-statuses`]] }, fn(`${tab}-statuses`, tab, 'statuses', STATUS_RECORDER, [[]]));
  }
  if (options.debugToLog) nodes.push(debug(`${tab}-debug`, tab));
  if (options.observed) {
    nodes.push(
      httpIn(`${tab}-observed-in`, tab, '/hardening/observed', 'get', `${tab}-observed`),
      fn(`${tab}-observed`, tab, 'observed', OBSERVED, [[`${tab}-response`]]),
      httpIn(`${tab}-gc-in`, tab, '/hardening/collect-garbage', 'post', `${tab}-gc`),
      fn(`${tab}-gc`, tab, 'collect garbage', COLLECT_GARBAGE, [[`${tab}-response`]]),
    );
  }
  return nodes;
}

function probeNodes(tab: string, probe: Probe, debugToLog: boolean): FlowNode[] {
  const outputs = [`${probe.id}-ack`, ...(debugToLog ? [`${tab}-debug`] : [])];
  return [
    httpIn(`${probe.id}-in`, tab, `/hardening/${probe.id}`, 'post', `${probe.id}-unpack`),
    fn(`${probe.id}-unpack`, tab, 'unpack', UNPACK, [[probe.id]]),
    { ...layout, ...probe.node, id: probe.id, z: tab, wires: [outputs] },
    fn(`${probe.id}-ack`, tab, 'ack', ACK, [[`${tab}-response`]]),
  ];
}

function liveProbeNodes(tab: string, probe: Probe, debugToLog: boolean): FlowNode[] {
  const outputs = [`${probe.id}-seen`, ...(debugToLog ? [`${tab}-debug`] : [])];
  // One recorder for both outputs: every function node is a script context of its own, costly on each redeploy.
  return [{ ...layout, ...probe.node, id: probe.id, z: tab, wires: [outputs, outputs] }, fn(`${probe.id}-seen`, tab, 'seen', liveRecorder(probe.id), [[]])];
}

/** One tab of the harness with its probes. */
export function harnessTab(options: TabOptions): FlowNode[] {
  const debugToLog = options.debugToLog ?? false;
  return [
    ...frame(options),
    ...(options.probes ?? []).flatMap((probe) => probeNodes(options.tab, probe, debugToLog)),
    ...(options.liveProbes ?? []).flatMap((probe) => liveProbeNodes(options.tab, probe, debugToLog)),
  ];
}

/** A `stagelink-server` config node (global: no z). */
export function serverNode(id: string, host: unknown, extra: Record<string, unknown> = {}): FlowNode {
  return { id, type: 'stagelink-server', name: '', host, followDirector: false, ...extra };
}

/** A `stagelink-drive` config node with its token as a credential, as the editor sends it. */
export function driveNode(id: string, baseUrl: unknown, token: string): FlowNode {
  return { id, type: 'stagelink-drive', name: '', baseUrl, credentials: { token } };
}
