import type { RunContext } from '../context.js';
import { generateMessage, INPUT_NODE_TYPES, validFields, type ShowFacts } from '../gen/node-messages.js';
import { driveBaseUrls, driveTokens, generateInputSettings, generateLiveSettings, serverHosts } from '../gen/node-settings.js';
import type { Random } from '../gen/random.js';
import type { Wire } from '../gen/values.js';
import type { FlowNode } from '../node-red/admin-api.js';
import { harnessTab, type Probe } from '../node-red/flows.js';
import { countOutcome, describeInput, example } from '../node-red/outcomes.js';
import { observed, sendCommand, type Observed } from '../node-red/probe-client.js';
import type { NodeRedSession } from '../node-red/session.js';
import { showFacts } from '../node-red/show-facts.js';
import { brief, isClearErrorText } from '../report/clear-error.js';
import { Tally } from '../report/tally.js';
import { inPool, sleep } from '../support/time.js';
import { checkAftermath } from './node-red-messages.js';

const TAB = 'hardening-settings';
const BATCH = 24;
/** Live nodes get this long after a deploy to show a value, an error or an explicit offline state. */
const LIVE_SETTLE_MS = 5000;
const PARALLEL = 4;

interface Batch {
  configs: FlowNode[];
  probes: (Probe & { settings: Record<string, Wire> })[];
  liveProbes: (Probe & { settings: Record<string, Wire> })[];
  messages: Map<string, Record<string, Wire>>;
}

/**
 * Generated configurations of all nine node types, deployed to a real Node-RED in batches: config nodes
 * with bad addresses or tokens, typed inputs of every type with right and wrong expressions, live nodes with
 * any preset, expression, interval and average. Every node with an input gets one message and must answer
 * it (ack or clear error); every live node must show a value, a clear error or an explicit offline state.
 */
export async function nodeRedSettings(context: RunContext, session: NodeRedSession): Promise<Tally> {
  const tally = new Tally('node-red: node settings');
  const facts = await showFacts(session.sim);
  const guardedBefore = session.requests.count;
  const batches = Math.ceil(context.budget.generatedNodes / BATCH);
  for (let index = 0; index < batches; index++) {
    const batch = generateBatch(context.random.fork(`batch-${index}`), session, facts, index);
    await runBatch(session, batch, tally);
  }
  await session.checkAlive(tally, 'at the end of the generated settings');
  await checkAftermath(session, tally, guardedBefore);
  context.progress(`node-red settings: ${tally.inputs} generated nodes in ${batches} deploys`);
  return tally.finish();
}

function generateBatch(random: Random, session: NodeRedSession, facts: ShowFacts, index: number): Batch {
  const { sim } = session;
  const servers = [`b${index}-server-good`, `b${index}-server-1`, `b${index}-server-2`];
  const drives = [`b${index}-drive-good`, `b${index}-drive-1`];
  const configs: FlowNode[] = [
    { id: servers[0] as string, type: 'stagelink-server', host: sim.mediaServer.url, followDirector: true },
    ...servers.slice(1).map((id) => ({ id, type: 'stagelink-server', host: random.pick(serverHosts(sim.mediaServer.url)), followDirector: random.pick<Wire>([true, false, 'yes', 0, null]) })),
    { id: drives[0] as string, type: 'stagelink-drive', baseUrl: sim.drive.url, credentials: { token: sim.drive.token } },
    ...drives.slice(1).map((id) => ({ id, type: 'stagelink-drive', baseUrl: random.pick(driveBaseUrls(sim.drive.url)), credentials: { token: random.pick(driveTokens(sim.drive.token)) } })),
  ];
  const reference = (ids: string[]): Wire => (random.chance(0.9) ? random.pick(ids) : random.pick<Wire>(['', 'no-such-node', 5, null]));
  const batch: Batch = { configs, probes: [], liveProbes: [], messages: new Map() };
  const pools = validFields(facts);
  for (let slot = 0; slot < BATCH; slot++) {
    const id = `b${index}-n${slot}`;
    if (random.chance(0.25)) {
      const settings = { ...generateLiveSettings(random), server: reference(servers) };
      batch.liveProbes.push({ id, settings, node: { type: 'stagelink-liveupdate-in', name: '', ...settings } });
      continue;
    }
    const type = random.pick(INPUT_NODE_TYPES);
    const link: Record<string, Wire> = type === 'stagelink-drive-version' ? { drive: reference(drives) } : { server: reference(servers) };
    const settings = { ...generateInputSettings(random, type, facts), ...link };
    batch.probes.push({ id, settings, node: { type, name: '', ...settings } });
    const message = random.chance(0.5) ? {} : generateMessage(random, pools[type]);
    if (message.confirm === true) message.confirm = 'true';
    batch.messages.set(id, message);
  }
  return batch;
}

async function runBatch(session: NodeRedSession, batch: Batch, tally: Tally): Promise<void> {
  const generation = session.nextGeneration();
  const flows = [...batch.configs, ...harnessTab({ tab: TAB, generation, probes: batch.probes, liveProbes: batch.liveProbes, observed: true })];
  await observed(session.url, true).catch(() => undefined);
  await session.deploy(flows, 'full', [TAB], generation);
  await inPool(batch.probes, PARALLEL, async (probe) => {
    tally.inputs++;
    const fields = batch.messages.get(probe.id) ?? {};
    const outcome = await sendCommand(session.url, probe.id, fields);
    const input = (): string => `settings ${brief(JSON.stringify(probe.settings), 160)}, ${describeInput(fields, 0)}`;
    if (!countOutcome(tally, outcome, `${probe.id} (${probe.node.type})`, input)) await session.checkAlive(tally, `after ${probe.id}: ${input()}`);
  });
  await sleep(LIVE_SETTLE_MS);
  if (!(await session.checkAlive(tally, 'after a batch of generated nodes'))) return;
  const seen = await observed(session.url);
  for (const probe of batch.liveProbes) countLiveProbe(tally, probe, seen);
}

/** A live node: values, a clear error on a Catch node, or an explicit offline state shown on the node. */
function countLiveProbe(tally: Tally, probe: Probe & { settings: Record<string, Wire> }, seen: Observed): void {
  tally.inputs++;
  const errors = seen.errors.filter((error) => error.sourceId === probe.id);
  const shown = seen.statuses.filter((status) => status.id === probe.id);
  const settings = (): string => `settings ${brief(JSON.stringify(probe.settings), 200)}`;
  if ((seen.live[probe.id]?.values ?? 0) > 0) tally.ok++;
  else if (errors.length > 0) {
    const unclear = errors.find((error) => !isClearErrorText(error.message));
    if (unclear) example(tally, 'unclear error from stagelink-liveupdate-in', `${probe.id}: ${brief(unclear.message)} ← ${settings()}`);
    else tally.errors++;
  } else if (shown.some((status) => status.text === 'offline' || status.text === 'connecting')) tally.errors++;
  else {
    tally.silentLosses++;
    example(tally, 'silent loss', `${probe.id} (liveupdate-in) showed no value, no error and no offline state in ${LIVE_SETTLE_MS / 1000} s (statuses: ${brief(JSON.stringify(shown), 120)}) ← ${settings()}`);
  }
}
