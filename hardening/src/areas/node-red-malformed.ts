import type { RunContext } from '../context.js';
import { HostileServer } from '../hostile/hostile-server.js';
import { driveNode, harnessTab, serverNode, type Probe } from '../node-red/flows.js';
import { countOutcome, example } from '../node-red/outcomes.js';
import { observed, sendCommand } from '../node-red/probe-client.js';
import type { NodeRedSession } from '../node-red/session.js';
import { brief, isClearErrorText } from '../report/clear-error.js';
import { Tally } from '../report/tally.js';
import { inPool, sleep, waitUntil } from '../support/time.js';

const TAB = 'hardening-malformed';
const SERVER = 'hostile-server';
const DRIVE = 'hostile-drive';
const PARALLEL = 3;

/** Nodes that each read a different answer shape from the hostile server. */
function probes(): Probe[] {
  const server = { server: SERVER };
  const nodes: [string, Record<string, unknown>][] = [
    ['transport-play', { type: 'stagelink-transport', ...server, command: 'play', transport: 'main', transportType: 'str' }],
    ['transport-volume', { type: 'stagelink-transport', ...server, command: 'volume', transport: 'main', transportType: 'str', volume: '0.5', volumeType: 'num' }],
    ['status-health', { type: 'stagelink-status', ...server, operation: 'health', machine: 'actor-1', machineType: 'str' }],
    ['status-session', { type: 'stagelink-status', ...server, operation: 'session' }],
    ['status-project', { type: 'stagelink-status', ...server, operation: 'project' }],
    ['status-notifications', { type: 'stagelink-status', ...server, operation: 'notifications' }],
    ['failover-settings', { type: 'stagelink-failover', ...server, operation: 'settings' }],
    ['failover-targets', { type: 'stagelink-failover', ...server, operation: 'understudytargets' }],
    ['oled', { type: 'stagelink-oled-out', ...server, message: 'Stand by', messageType: 'str', displayTime: '5', displayTimeType: 'num' }],
    ['request-transports', { type: 'stagelink-request', ...server, endpoint: 'transports' }],
    ['request-media', { type: 'stagelink-request', ...server, endpoint: 'listMedia', query: '{"directory":"video"}', queryType: 'json' }],
    ['drive-list', { type: 'stagelink-drive-version', drive: DRIVE, operation: 'list', driveId: 'd1', contentId: 'c1', listMode: 'pages' }],
    ['drive-get', { type: 'stagelink-drive-version', drive: DRIVE, operation: 'get', driveId: 'd1', contentId: 'c1', versionId: 'v1' }],
  ];
  return nodes.map(([id, node]) => ({ id: `bad-${id}`, node: node as Probe['node'] }));
}

function liveProbes(): Probe[] {
  const presets = ['localFps', 'cpu', 'gpuMemory', 'processMemory'];
  return presets.map((preset) => ({ id: `bad-live-${preset}`, node: { type: 'stagelink-liveupdate-in', server: SERVER, preset, average: 10 } }));
}

/**
 * The Node-RED nodes against a media server (and drive) that only answers badly, while malformed live
 * frames stream to the live nodes. Every command must end in an ack or a clear error; Node-RED stays up.
 */
export async function nodeRedMalformedAnswers(context: RunContext, session: NodeRedSession): Promise<Tally> {
  const tally = new Tally('node-red: malformed answers');
  const hostile = await HostileServer.start(context.random.fork('node-red-hostile'));
  try {
    const commandProbes = probes();
    await deploy(session, hostile, commandProbes);
    const opened = await waitUntil(() => hostile.liveSockets > 0, 10_000);
    tally.expect(opened === true, 'the live nodes opened no socket to the broken server within 10 s: its malformed frames reached no node');
    hostile.streamFrames(50);
    const rounds = context.budget.coreRounds * 4;
    const commands = Array.from({ length: rounds }, () => commandProbes).flat();
    await inPool(commands, PARALLEL, async (probe) => {
      tally.inputs++;
      const outcome = await sendCommand(session.url, probe.id, {});
      if (countOutcome(tally, outcome, probe.id, () => `after ${hostile.recent().at(-1) ?? '?'}`)) return;
      if (await session.checkAlive(tally, `after ${probe.id}, last answers: ${hostile.recent().slice(-3).join(' | ')}`)) return;
      await deploy(session, hostile, commandProbes);
    });
    hostile.stopFrames();
    await sleep(500);
    if (await session.checkAlive(tally, `after malformed live frames: ${hostile.recent().slice(-3).join(' | ')}`)) await countLiveErrors(session, tally);
    tally.note(`${hostile.requests} hostile HTTP answers, ${hostile.framesSent} hostile live frames`);
    await session.api.deploy([], 'full');
    const released = await waitUntil(() => hostile.liveSockets === 0, 5000);
    if (!released) tally.leakedSockets += hostile.liveSockets;
  } finally {
    await hostile.close();
  }
  context.progress(`node-red malformed: ${tally.inputs} commands against the hostile server`);
  return tally.finish();
}

async function deploy(session: NodeRedSession, hostile: HostileServer, commandProbes: Probe[]): Promise<void> {
  const generation = session.nextGeneration();
  const flows = [
    serverNode(SERVER, hostile.url),
    driveNode(DRIVE, hostile.url, 'hostile-token'),
    ...harnessTab({ tab: TAB, generation, probes: commandProbes, liveProbes: liveProbes(), observed: true }),
  ];
  await observed(session.url, true).catch(() => undefined);
  await session.deploy(flows, 'full', [TAB], generation);
}

/** Errors the live nodes reported must be clear; each frame counts as an input handled. */
async function countLiveErrors(session: NodeRedSession, tally: Tally): Promise<void> {
  const seen = await observed(session.url);
  const liveErrors = seen.errors.filter((error) => error.source === 'stagelink-liveupdate-in');
  for (const error of liveErrors) {
    if (!isClearErrorText(error.message)) example(tally, 'unclear error from stagelink-liveupdate-in', brief(error.message));
  }
  const values = Object.values(seen.live).reduce((sum, record) => sum + record.values, 0);
  tally.note(`live nodes: ${values} values passed on, ${liveErrors.length} errors reported to Catch`);
}
