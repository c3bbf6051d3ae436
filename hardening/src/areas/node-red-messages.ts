import type { RunContext } from '../context.js';
import { generateMessage, validFields, type GeneratedMessage } from '../gen/node-messages.js';
import type { Random } from '../gen/random.js';
import { driveNode, harnessTab, serverNode, type Probe } from '../node-red/flows.js';
import { countOutcome, describeInput } from '../node-red/outcomes.js';
import { observed, sendCommand } from '../node-red/probe-client.js';
import { DRIVE_ID, messageProbes, SERVER_ID, type MessageProbe } from '../node-red/probes.js';
import type { NodeRedSession } from '../node-red/session.js';
import { showFacts } from '../node-red/show-facts.js';
import { Tally } from '../report/tally.js';
import { inPool, waitUntil } from '../support/time.js';

const TAB = 'hardening-messages';
/** Commands in flight at once: enough to overlap, few enough for two cores. */
const PARALLEL = 4;

interface Command {
  probe: MessageProbe;
  fields: GeneratedMessage;
  index: number;
}

/**
 * Generated messages into every stagelink node with an input, in a real Node-RED against the simulator:
 * wrong types, missing fields, huge strings, NaN and other values JSON cannot carry, nested objects,
 * `__proto__` and `constructor` keys, ids with `/` and `..`. Each must end in an ack or a clear error on a
 * Catch node; Node-RED must stay up; no guarded request may reach the server (nothing here confirms one);
 * no id may leave its path segment; Object.prototype must stay clean.
 */
export async function nodeRedMessages(context: RunContext, session: NodeRedSession): Promise<Tally> {
  const tally = new Tally('node-red: messages');
  const facts = await showFacts(session.sim);
  const probes = messageProbes(facts);
  const commands = generateCommands(context.random, probes, validFields(facts), context.budget.messagesPerProbe);
  const guardedBefore = session.requests.count;
  session.sim.state.hardware.loggedIn = true;
  await deployProbes(session, probes);
  await inPool(commands, PARALLEL, async ({ probe, fields, index }) => {
    tally.inputs++;
    const outcome = await sendCommand(session.url, probe.id, fields);
    if (countOutcome(tally, outcome, probe.id, () => describeInput(fields, index))) return;
    if (await session.checkAlive(tally, `after ${probe.id} ${describeInput(fields, index)}`)) {
      tally.finding(`${probe.id}: Node-RED did not take the request (${outcome.kind === 'unreachable' ? outcome.reason : ''})`);
    } else await deployProbes(session, probes);
  });
  await session.checkAlive(tally, 'at the end of the messages');
  await checkAftermath(session, tally, guardedBefore);
  context.progress(`node-red messages: ${tally.inputs} commands, ${tally.ok} acked, ${tally.errors} clear errors`);
  return tally.finish();
}

function generateCommands(random: Random, probes: readonly MessageProbe[], pools: ReturnType<typeof validFields>, perProbe: number): Command[] {
  const commands: Command[] = [];
  for (let index = 0; index < perProbe; index++) {
    for (const probe of probes) {
      const fields = generateMessage(random, pools[probe.type]);
      // Nothing in this area confirms: an unconfirmed guarded operation must be refused before it is sent.
      if (fields.confirm === true) fields.confirm = 'true';
      commands.push({ probe, fields, index: commands.length });
    }
  }
  return commands;
}

export async function deployProbes(session: NodeRedSession, probes: readonly Probe[]): Promise<void> {
  const generation = session.nextGeneration();
  const flows = [
    serverNode(SERVER_ID, session.sim.mediaServer.url),
    driveNode(DRIVE_ID, session.sim.drive.url, session.sim.drive.token),
    ...harnessTab({ tab: TAB, generation, probes, observed: true }),
  ];
  await session.deploy(flows, 'full', [TAB], generation);
}

/**
 * What the whole area must not have caused: guarded requests, escaped ids, a polluted prototype, and live
 * sockets left on the simulator once its flow is gone.
 */
export async function checkAftermath(session: NodeRedSession, tally: Tally, guardedBefore: number): Promise<void> {
  const guarded = session.requests.since(guardedBefore);
  tally.expect(guarded.length === 0, `${guarded.length} guarded requests reached the server without confirmation: ${guarded.slice(0, 3).join(', ')}`);
  tally.expect(session.requests.escapes.length === 0, `ids left their path segment: ${session.requests.escapes.slice(0, 3).join(', ')}`);
  const { polluted } = await observed(session.url);
  tally.expect(polluted.length === 0, `Object.prototype of the Node-RED runtime gained ${polluted.join(', ')}`);
  await session.api.deploy([], 'full');
  const released = await waitUntil(() => session.sim.live.stats().sockets === 0, 10_000);
  if (!released) {
    tally.leakedSockets += session.sim.live.stats().sockets;
    tally.finding(`${session.sim.live.stats().sockets} live sockets stayed open on the simulator after the flow was removed`);
  }
}
