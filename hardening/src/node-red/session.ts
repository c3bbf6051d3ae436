import { createRequire } from 'node:module';
import { startSimulator, type Dialect, type Simulator } from '@stagelink/simulator';
import type { Tally } from '../report/tally.js';
import { brief } from '../report/clear-error.js';
import { LogWatch } from '../support/log-watch.js';
import { RequestWatch } from '../support/request-watch.js';
import { AdminApi, type DeploymentType, type FlowNode } from './admin-api.js';
import { waitForGeneration } from './probe-client.js';
import { startNodeRed, type NodeRedRuntime } from './runtime.js';

/** The node types the package declares to Node-RED. */
const STAGELINK_NODE_RED = (createRequire(import.meta.url)('@stagelink/node-red/package.json') as { 'node-red': { nodes: Record<string, string> } })['node-red'];

/**
 * One Node-RED runtime and the simulator it drives, shared by the Node-RED areas. When Node-RED dies the
 * crash is counted in the area's tally and a fresh runtime takes its place, so one crash hides nothing else.
 */
export class NodeRedSession {
  readonly log = new LogWatch();
  #red!: NodeRedRuntime;
  #api!: AdminApi;
  #generation = 0;

  private constructor(
    readonly sim: Simulator,
    /** What reached the simulator: guarded requests and ids that escaped their path segment. */
    readonly requests: RequestWatch,
  ) {}

  static async start(seed: number, dialect: Dialect): Promise<NodeRedSession> {
    const requests = new RequestWatch();
    const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed, dialect, log: requests.sink });
    const session = new NodeRedSession(sim, requests);
    session.log.watchFor(sim.drive.token);
    await session.#startRed();
    return session;
  }

  get red(): NodeRedRuntime {
    return this.#red;
  }

  get api(): AdminApi {
    return this.#api;
  }

  get url(): string {
    return this.#red.url;
  }

  /** The next deploy generation: the ready endpoint of each tab answers it once the deploy took effect. */
  nextGeneration(): number {
    return ++this.#generation;
  }

  /** Deploys and waits until every tab in `tabs` answers `generation`. */
  async deploy(flows: readonly FlowNode[], type: DeploymentType, tabs: readonly string[], generation: number): Promise<void> {
    await this.#api.deploy(flows, type);
    for (const tab of tabs) {
      if (!(await waitForGeneration(this.url, tab, generation))) throw new Error(`The deploy of generation ${generation} did not take effect on ${tab}.\n${this.log.tail(3000)}`);
    }
  }

  /**
   * True when Node-RED runs and answers its admin API. Otherwise counts a crash in `tally` with the last
   * log lines, starts a new runtime and returns false (the caller deploys its flows again).
   */
  async checkAlive(tally: Tally, what: string): Promise<boolean> {
    if (this.#red.alive() && (await this.#api.responsive())) return true;
    tally.crashes++;
    const exit = this.#red.exitCode();
    tally.finding(`Node-RED ${exit === undefined ? 'stopped answering' : `exited (code ${String(exit)})`} ${what}: ${brief(this.log.tail(1200), 600)}`);
    await this.#red.stop();
    await this.#startRed();
    return false;
  }

  async restartRed(): Promise<void> {
    await this.#red.stop();
    await this.#startRed();
  }

  async close(): Promise<void> {
    await this.#red.stop();
    await this.sim.close();
  }

  async #startRed(): Promise<void> {
    this.#red = await startNodeRed(this.log);
    this.#api = await AdminApi.login(this.#red);
    await this.#checkNodesLoaded();
  }

  /** Every stagelink node type registered without a load error, or the run stops with what Node-RED said. */
  async #checkNodesLoaded(): Promise<void> {
    const answer = await this.#api.request('/nodes');
    const sets = (JSON.parse(answer.text) as { module: string; types: string[]; enabled: boolean; err?: unknown }[]).filter((set) => set.module === '@stagelink/node-red');
    const loaded = sets.filter((set) => set.enabled && !set.err).flatMap((set) => set.types);
    const problems = sets.filter((set) => set.err).map((set) => JSON.stringify(set.err));
    const declared = Object.keys(STAGELINK_NODE_RED.nodes).length;
    if (loaded.length !== declared) throw new Error(`Node-RED loaded ${loaded.length} of the ${declared} stagelink node types: ${problems.join('; ')}`);
  }
}
