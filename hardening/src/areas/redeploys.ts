import type { RunContext } from '../context.js';
import type { DeploymentType, FlowNode } from '../node-red/admin-api.js';
import { driveNode, harnessTab, serverNode, type Probe } from '../node-red/flows.js';
import { collectGarbage, observed, sendCommand } from '../node-red/probe-client.js';
import type { NodeRedSession } from '../node-red/session.js';
import { Tally } from '../report/tally.js';
import { sampleProcess, type ProcessSample } from '../support/process-stats.js';
import { sleep, waitUntil } from '../support/time.js';

const TAB = 'hardening-redeploys';
const SERVER = 'redeploy-server';
const DRIVE = 'redeploy-drive';
const WARM_UP_DEPLOYS = 10;
const MB = 1024 * 1024;
/** Time for close handlers, sockets in TIME_WAIT and the garbage collector to settle before a sample. */
const SETTLE_MS = 6000;
/** How many looks at memory make a sample, and how far apart. */
const SAMPLE_LOOKS = 3;
const LOOK_INTERVAL_MS = 3000;
/**
 * Bounds on growth from after the warm-up to after the last deploy. Each deploy replaces every node and, on full
 * deploys, the config nodes with their HTTP pool and live socket: a leaked socket, timer or listener per deploy
 * would keep its objects, and what they hold, on the JavaScript heap (read after a full garbage collection, in
 * the process) and its descriptors open (/proc/<pid>/fd). Resident memory (VmRSS) is bounded more loosely: the
 * allocator keeps freed pages for a while, so it grows by tens of MB with nothing leaked.
 */
export const GROWTH_BOUNDS = { fds: 5, heapMb: 10, rssMb: 40 };

/**
 * 200 deploys (the CI subset: 40) of a flow that uses every node type, alternating full and modified-nodes
 * deploys and changing nodes each time (a live node's interval, a status node's poll, names). At the end:
 * one live socket on the server, the flow still answers, and no growth in file descriptors or memory
 * beyond GROWTH_BOUNDS.
 */
export async function redeploys(context: RunContext, session: NodeRedSession): Promise<Tally> {
  const tally = new Tally('node-red: redeploys');
  await session.restartRed();
  for (let index = 0; index < WARM_UP_DEPLOYS; index++) await deploy(session, index);
  const before = await settledSample(session);
  for (let index = WARM_UP_DEPLOYS; index < WARM_UP_DEPLOYS + context.budget.redeploys; index++) {
    tally.inputs++;
    try {
      await deploy(session, index);
      tally.ok++;
    } catch (error) {
      if (!(await session.checkAlive(tally, `during deploy ${index}`))) return tally.finish();
      tally.finding(`deploy ${index} failed: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
    }
  }
  const after = await settledSample(session);
  checkGrowth(tally, before, after);
  await checkStillWorks(session, tally);
  await checkSockets(session, tally);
  context.progress(`redeploys: ${tally.inputs} deploys, fds ${before.fds} → ${after.fds}, heap ${mb(before.heapBytes / 1024)} → ${mb(after.heapBytes / 1024)} MB, RSS ${mb(before.rssKb)} → ${mb(after.rssKb)} MB`);
  return tally.finish();
}

function flowOf(session: NodeRedSession, index: number): FlowNode[] {
  const { sim } = session;
  const server = { server: SERVER };
  const probes: Probe[] = [
    { id: 'redeploy-transport', node: { type: 'stagelink-transport', ...server, name: `cue ${index % 3}`, command: 'play', transport: 'main', transportType: 'str' } },
    { id: 'redeploy-failover', node: { type: 'stagelink-failover', ...server, operation: 'settings' } },
    { id: 'redeploy-drive-version', node: { type: 'stagelink-drive-version', drive: DRIVE, operation: 'list', driveId: sim.drive.demoDrive.driveId, contentId: sim.drive.demoDrive.contentId, perPage: '20', perPageType: 'num' } },
    { id: 'redeploy-oled', node: { type: 'stagelink-oled-out', ...server, message: 'Stand by', messageType: 'str' } },
    // Polls on its own: every deploy must stop the old timer.
    { id: 'redeploy-status', node: { type: 'stagelink-status', ...server, operation: 'health', interval: 1 + (index % 2) } },
    { id: 'redeploy-request', node: { type: 'stagelink-request', ...server, endpoint: 'transports' } },
  ];
  const liveProbes: Probe[] = [
    // A changed interval makes a modified-nodes deploy restart it, with a new server subscription.
    { id: 'redeploy-live-fps', node: { type: 'stagelink-liveupdate-in', ...server, preset: 'localFps', interval: index % 2 === 0 ? 100 : 250, average: 10 } },
    { id: 'redeploy-live-cpu', node: { type: 'stagelink-liveupdate-in', ...server, preset: 'cpu', interval: 100 } },
  ];
  return [
    // The server's name changes on full deploys only, so modified-nodes deploys keep it and its socket.
    serverNode(SERVER, sim.mediaServer.url, { followDirector: true, name: `show ${Math.floor(index / 2) % 2}` }),
    driveNode(DRIVE, sim.drive.url, sim.drive.token),
    ...harnessTab({ tab: TAB, generation: index + 1, probes, liveProbes, observed: true, recordStatuses: false }),
  ];
}

async function deploy(session: NodeRedSession, index: number): Promise<void> {
  const type: DeploymentType = index % 2 === 0 ? 'full' : 'nodes';
  await session.deploy(flowOf(session, index), type, [TAB], index + 1);
}

interface Sample extends ProcessSample {
  heapBytes: number;
}

/**
 * Memory and descriptors after a settle and a garbage collection the harness flow asks for: without it, memory
 * swings by tens of MB with the collector's timing and hides (or fakes) a leak. On a busy machine old flows can
 * still be closing at the first look, so the lowest of a few looks a few seconds apart is taken: what a leak
 * keeps stays in every one of them.
 */
async function settledSample(session: NodeRedSession): Promise<Sample> {
  await sleep(SETTLE_MS);
  let lowest: Sample | undefined;
  for (let look = 0; look < SAMPLE_LOOKS; look++) {
    if (look > 0) await sleep(LOOK_INTERVAL_MS);
    const heapBytes = await collectGarbage(session.url);
    if (heapBytes === undefined) throw new Error('The harness flow could not collect garbage: Node-RED must run with --expose-gc.');
    await sleep(1000);
    const sample = { ...sampleProcess(session.red.pid), heapBytes };
    if (!lowest || sample.heapBytes < lowest.heapBytes) lowest = sample;
  }
  return lowest as Sample;
}

function checkGrowth(tally: Tally, before: Sample, after: Sample): void {
  const fds = after.fds - before.fds;
  const heapMb = (after.heapBytes - before.heapBytes) / MB;
  const rssMb = (after.rssKb - before.rssKb) / 1024;
  tally.note(
    `file descriptors ${before.fds} → ${after.fds} (bound +${GROWTH_BOUNDS.fds}), heap ${mb(before.heapBytes / 1024)} → ${mb(after.heapBytes / 1024)} MB (bound +${GROWTH_BOUNDS.heapMb} MB), RSS ${mb(before.rssKb)} → ${mb(after.rssKb)} MB (bound +${GROWTH_BOUNDS.rssMb} MB), after a ${SETTLE_MS / 1000} s settle and a garbage collection`,
  );
  tally.expect(fds <= GROWTH_BOUNDS.fds, `Node-RED's file descriptors grew by ${fds} over the deploys (bound ${GROWTH_BOUNDS.fds})`);
  tally.expect(heapMb <= GROWTH_BOUNDS.heapMb, `Node-RED's heap grew by ${heapMb.toFixed(1)} MB over the deploys (bound ${GROWTH_BOUNDS.heapMb} MB)`);
  tally.expect(rssMb <= GROWTH_BOUNDS.rssMb, `Node-RED's memory grew by ${rssMb.toFixed(1)} MB over the deploys (bound ${GROWTH_BOUNDS.rssMb} MB)`);
}

async function checkStillWorks(session: NodeRedSession, tally: Tally): Promise<void> {
  const outcome = await sendCommand(session.url, 'redeploy-transport', {});
  tally.expect(outcome.kind === 'ack', `after the deploys the transport node answered ${JSON.stringify(outcome)}`);
  const since = Date.now();
  const flowing = await waitUntil(async () => ((await observed(session.url)).live['redeploy-live-fps']?.lastValueAt ?? 0) > since, 10_000);
  tally.expect(flowing === true, 'after the deploys the live node passed on no value');
}

/** One socket for the one server config node; none when the flow is gone. */
async function checkSockets(session: NodeRedSession, tally: Tally): Promise<void> {
  const stats = (): { sockets: number; subscriptions: number } => session.sim.live.stats();
  const one = await waitUntil(() => stats().sockets === 1, 10_000);
  tally.note(`live update after the deploys: ${stats().sockets} socket, ${stats().subscriptions} server subscriptions (2 expected)`);
  if (!one) tally.leakedSockets += Math.max(0, stats().sockets - 1);
  tally.expect(stats().subscriptions === 2, `${stats().subscriptions} server subscriptions after the deploys, 2 expected`);
  await session.api.deploy([], 'full');
  const none = await waitUntil(() => stats().sockets === 0, 10_000);
  if (!none) tally.leakedSockets += stats().sockets;
}

function mb(kb: number): string {
  return (kb / 1024).toFixed(1);
}
