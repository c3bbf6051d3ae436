import { MediaServer } from '@stagelink/core';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import helper from 'node-red-node-test-helper';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { simControl, startSimulator, type ControlRequest, type Simulator, type SimulatorSummary } from '@stagelink/simulator';

/**
 * Shared test plumbing: the built node files (what ships, not the sources), the test helper on the workspace's
 * Node-RED, and a real simulator over real sockets.
 */
const requireFromHere = createRequire(import.meta.url);

helper.init(requireFromHere.resolve('node-red'));

export { helper };

export const NODE_TYPES = [
  'stagelink-server',
  'stagelink-drive',
  'stagelink-transport',
  'stagelink-failover',
  'stagelink-drive-version',
  'stagelink-liveupdate-in',
  'stagelink-liveupdate-out',
  'stagelink-oled-out',
  'stagelink-status',
  'stagelink-request',
  'stagelink-events',
  'stagelink-clock',
  'stagelink-record',
  'stagelink-hardware',
  'stagelink-renderstream',
] as const;

/** The node modules as Node-RED loads them: dist/nodes/<type>.js. */
export function nodeModules(...types: (typeof NODE_TYPES)[number][]): unknown[] {
  return types.map((type) => requireFromHere(fileURLToPath(new URL(`../../dist/nodes/${type}.js`, import.meta.url))) as unknown);
}

export const allNodes = (): unknown[] => nodeModules(...NODE_TYPES);

export async function startSim(): Promise<Simulator> {
  return startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
}

/** A simulator for the whole file, reset before each test; each test's flow is unloaded after it. */
export function useSimulator(onStarted: (sim: Simulator) => void): void {
  let sim: Simulator | undefined;
  beforeAll(async () => {
    sim = await startSim();
    onStarted(sim);
  });
  afterAll(async () => {
    await sim?.close();
  });
  beforeEach(async () => {
    if (sim) await control(sim, { action: 'reset' });
  });
  afterEach(async () => {
    await helper.unload();
  });
}

/** useSimulator, with a client of the simulated server for the test's own reads and cues, closed after the file. */
export function useSimulatorAndClient(onStarted: (sim: Simulator, client: MediaServer) => void): void {
  let client: MediaServer | undefined;
  useSimulator((sim) => {
    client = new MediaServer({ host: sim.mediaServer.url });
    onStarted(sim, client);
  });
  afterAll(async () => {
    await client?.close();
  });
}

/** The simulator's `session` scenario (one server per machine) for the whole file; each test's flow is unloaded after it. */
export function useSessionSimulator(onStarted: (sim: Simulator) => void): void {
  let sim: Simulator | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ scenario: 'session', port: 0, drivePort: 0 });
    onStarted(sim);
  });
  afterAll(async () => {
    await sim?.close();
  });
  afterEach(async () => {
    await helper.unload();
  });
}

/** `POST /__sim/control` on the media-server port (or the drive's); answers the simulator's state summary. */
export function control(sim: Simulator, request: ControlRequest, port: 'mediaServer' | 'drive' = 'mediaServer'): Promise<SimulatorSummary> {
  return simControl(port === 'mediaServer' ? sim.mediaServer.url : sim.drive.url, request);
}

/** The simulator state, read through the control endpoint (a no-op action). */
export function simState(sim: Simulator): Promise<SimulatorSummary> {
  return control(sim, { action: 'status' });
}

export interface Msg {
  payload?: unknown;
  topic?: string;
  error?: { message: string; source?: { id: string; type: string } };
  [key: string]: unknown;
}

/** The next msg a helper node receives. */
export function nextMessage(nodeId: string): Promise<Msg> {
  const node = helper.getNode(nodeId);
  if (!node) throw new Error(`No node ${nodeId} in the flow`);
  return new Promise((resolve) => node.once('input', (msg: Msg) => resolve(msg)));
}

/** Collects every msg a helper node receives from now on. */
export function collect(nodeId: string): Msg[] {
  const node = helper.getNode(nodeId);
  if (!node) throw new Error(`No node ${nodeId} in the flow`);
  const messages: Msg[] = [];
  node.on('input', (msg: Msg) => messages.push(msg));
  return messages;
}

/** vitest's waitFor, with room for real sockets and a real Node-RED on a busy machine. */
export function eventually<T>(check: () => T | Promise<T>, timeoutMs = 8000): Promise<T> {
  return vi.waitFor(check, { timeout: timeoutMs, interval: 50 });
}

/** Statuses a node has shown, in order. */
export function statuses(nodeId: string): { fill?: string; shape?: string; text?: string }[] {
  const node = helper.getNode(nodeId);
  if (!node) throw new Error(`No node ${nodeId} in the flow`);
  const seen: { fill?: string; shape?: string; text?: string }[] = [];
  node.on('call:status', (call: { args: [{ fill?: string; text?: string }] }) => seen.push(call.args[0]));
  return seen;
}

/** A flow: a server config node `server` on the simulator, the node under test `n1` wired to helper `out`,
 * and a catch node `catcher` wired to helper `caught`. */
export function flowWith(sim: Simulator, node: Record<string, unknown>): Record<string, unknown>[] {
  return [
    { id: 'tab', type: 'tab', label: 'test' },
    { id: 'server', type: 'stagelink-server', host: sim.mediaServer.url, followDirector: true, ...smcsOf(sim) },
    { id: 'n1', z: 'tab', server: 'server', wires: [['out']], ...node },
    { id: 'out', z: 'tab', type: 'helper' },
    { id: 'catcher', z: 'tab', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', z: 'tab', type: 'helper' },
  ];
}

/**
 * The server's machine SMC lines: on an r34 simulator the director's management controller, under the hostname the
 * session gives it (hardware nodes name it as their machine); nothing on the documents' one, whose machines serve
 * the hardware family on their own address.
 */
export function smcsOf(sim: Simulator): { smcs?: string } {
  return sim.smc ? { smcs: `${hostnames(sim).director}=${sim.smc.url}` } : {};
}

/**
 * Credentials for `helper.load` that log the flow's server in on the machine's SMC: its account on an r34
 * simulator, whose hardware family sits on a management address; nothing on the documents' one, which takes the
 * `login` control action instead.
 */
export function smcAccount(sim: Simulator): Record<string, Record<string, string>> {
  return sim.smc ? { server: { smcUsername: sim.smc.username, smcPassword: sim.smc.password } } : {};
}

/** The hostnames of the simulated session's machines, as this simulator's dialect names them. */
export function hostnames(sim: Simulator): { director: string; actor1: string; actor2: string; understudy: string } {
  const { director, actors, understudies } = sim.state.machines.sessionInfo();
  return { director: director?.hostname ?? '', actor1: actors[0]?.hostname ?? '', actor2: actors[1]?.hostname ?? '', understudy: understudies[0]?.hostname ?? '' };
}

/** The simulator's own count of live-update sockets and server subscriptions: what the machine sees. */
export function liveStats(sim: Simulator): { sockets: number; subscriptions: number; upgradeAttempts: number } {
  return sim.live.stats();
}
