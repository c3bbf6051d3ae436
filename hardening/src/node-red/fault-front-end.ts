import type { CommandOutcome, FaultFrontEnd, LiveMark } from '../faults/front-end.js';
import type { FaultServer } from '../faults/steps.js';
import type { FaultTargets } from '../faults/targets.js';
import { waitUntil } from '../support/time.js';
import { harnessTab, serverNode, type Probe } from './flows.js';
import { isClearNodeError } from './outcomes.js';
import { observed, sendCommand } from './probe-client.js';
import type { NodeRedSession } from './session.js';

const TAB = 'hardening-faults';
const SERVERS: readonly FaultServer[] = ['machine', 'session'];

/**
 * A flow with, for each of the two servers, a transport node behind an endpoint and a liveupdate-in node
 * (FPS, with its online/offline output), both following the director.
 */
export class NodeRedFaultFrontEnd implements FaultFrontEnd {
  readonly name = 'node-red';
  readonly followsUnresolvedDirector = true;

  private constructor(private readonly session: NodeRedSession) {}

  static async deploy(session: NodeRedSession, targets: FaultTargets): Promise<NodeRedFaultFrontEnd> {
    const hosts: Record<FaultServer, string> = { machine: targets.machine.url, session: targets.sessionSeedUrl };
    const probes: Probe[] = SERVERS.map((server) => ({ id: `fault-cue-${server}`, node: { type: 'stagelink-transport', server: `fault-${server}`, command: 'play', transport: 'main', transportType: 'str' } }));
    const liveProbes: Probe[] = SERVERS.map((server) => ({ id: `fault-live-${server}`, node: { type: 'stagelink-liveupdate-in', server: `fault-${server}`, preset: 'localFps', interval: 100 } }));
    const generation = session.nextGeneration();
    const flows = [
      ...SERVERS.map((server) => serverNode(`fault-${server}`, hosts[server], { followDirector: true, hosts: server === 'session' ? targets.hostMap() : '' })),
      ...harnessTab({ tab: TAB, generation, probes, liveProbes, observed: true }),
    ];
    await observed(session.url, true).catch(() => undefined);
    await session.deploy(flows, 'full', [TAB], generation);
    return new NodeRedFaultFrontEnd(session);
  }

  async command(server: FaultServer, index: number): Promise<CommandOutcome> {
    const outcome = await sendCommand(this.session.url, `fault-cue-${server}`, { command: index % 2 === 0 ? 'play' : 'stop' });
    if (outcome.kind === 'ack') return 'ack';
    if (outcome.kind === 'error') return isClearNodeError(outcome) ? 'error' : { unclear: `${outcome.source ?? 'unknown'}: ${outcome.message}` };
    return 'silent';
  }

  async mark(): Promise<LiveMark> {
    const seen = await observed(this.session.url);
    const position: Record<string, number> = {};
    for (const server of SERVERS) position[server] = seen.live[`fault-live-${server}`]?.offline ?? 0;
    return { at: Date.now(), position };
  }

  /** The first value after `since`, by the time Node-RED passed it on (not when the suite looked). */
  async liveResumed(server: FaultServer, since: LiveMark, limitMs: number): Promise<number | undefined> {
    const at = await waitUntil(async () => {
      const record = (await observed(this.session.url)).live[`fault-live-${server}`];
      return record?.valueTimes.find((time) => time > since.at);
    }, limitMs, 100);
    return at === undefined ? undefined : at - since.at;
  }

  async showedOffline(server: FaultServer, since: LiveMark): Promise<boolean> {
    const offline = (await observed(this.session.url)).live[`fault-live-${server}`]?.offline ?? 0;
    return offline > (since.position[server] ?? 0);
  }

  async alive(): Promise<boolean> {
    return this.session.red.alive() && (await this.session.api.responsive());
  }

  async release(): Promise<void> {
    await this.session.api.deploy([], 'full');
  }
}
