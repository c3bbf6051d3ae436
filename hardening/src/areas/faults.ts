import type { RunContext } from '../context.js';
import type { FaultFrontEnd } from '../faults/front-end.js';
import { faultSequence, type FaultStep } from '../faults/steps.js';
import { FaultTargets } from '../faults/targets.js';
import { NodeRedFaultFrontEnd } from '../node-red/fault-front-end.js';
import type { NodeRedSession } from '../node-red/session.js';
import { brief } from '../report/clear-error.js';
import { Tally } from '../report/tally.js';
import { DeckFaultFrontEnd } from '../streamdeck/fault-front-end.js';
import { checkPluginLog } from '../streamdeck/plugin-log.js';
import { countTurnOutcome, type DialCounts } from '../streamdeck/dial-turn.js';
import { sleep, waitUntil } from '../support/time.js';

/** A cue every this often, from each front end, while a fault holds. */
const COMMAND_EVERY_MS = 300;
/**
 * Live values flow again within about a second of the server being back. A connect attempt that a
 * stalled upgrade caught when the fault ended still runs into its connect timeout (5 s) first; past this
 * limit a live value has not resumed.
 */
const RESUME_LIMIT_MS = 8000;
/**
 * How long the live server hangs: once per full run past two heartbeats, so the client has to notice by itself,
 * and shortly in every other round.
 */
const PAUSE_MS = { long: 25_000, short: 3000 };

interface Counted {
  tally: Tally;
  frontEnd: FaultFrontEnd;
  resumeTimes: { step: string; ms: number }[];
  dials: DialCounts;
}

/**
 * The simulator's faults, played on a running flow and a running plugin at the same time: 5xx bursts, a
 * stall, a hung live server, dropped sockets, refused and stalled upgrades, a malformed frame, a director
 * change, the director machine stopping, and a server restart. Each cue sent is acknowledged or reported
 * as an error (sent = acked + errored); the live value is shown offline when the stream drops and flows
 * again after each fault; both processes stay up and the plugin logs no uncaught error; at the end each holds
 * one live socket per server, and none once their flow or keys are gone.
 */
export async function serverFaults(context: RunContext, session: NodeRedSession): Promise<Tally[]> {
  const targets = await FaultTargets.start(context.seed, context.dialect);
  const counted: Counted[] = [];
  let deck: DeckFaultFrontEnd | undefined;
  try {
    const nodeRed = await NodeRedFaultFrontEnd.deploy(session, targets);
    deck = await DeckFaultFrontEnd.launch(targets);
    const pluginTally = new Tally('stream deck: server faults');
    counted.push({ tally: new Tally('node-red: server faults'), frontEnd: nodeRed, resumeTimes: [], dials: { turned: 0, landed: 0, alerts: 0 } });
    counted.push({ tally: pluginTally, frontEnd: deck, resumeTimes: [], dials: { turned: 0, landed: 0, alerts: 0 } });
    await waitForLive(counted, targets);
    for (let round = 0; round < context.budget.faultRounds; round++) {
      const pauseMs = round === 0 && context.budget.name === 'full' ? PAUSE_MS.long : PAUSE_MS.short;
      for (const step of faultSequence(pauseMs)) {
        context.progress(`faults: round ${round + 1}, ${step.name}`);
        await playStep(step, targets, counted);
      }
    }
    await checkSockets(targets, counted, deck);
    checkPluginLog(deck.launched, pluginTally);
  } finally {
    await deck?.launched.close();
    await targets.close();
  }
  return counted.map(({ tally, resumeTimes, dials }) => {
    if (dials.turned > 0) tally.note(`${dials.turned} dial turns: ${dials.landed} reached the server as shown, ${dials.alerts} refused with an alert`);
    const slowest = [...resumeTimes].sort((a, b) => b.ms - a.ms)[0];
    if (slowest) tally.note(`live values resumed after ${resumeTimes.length} faults: median ${(median(resumeTimes.map((time) => time.ms)) / 1000).toFixed(1)} s, slowest ${(slowest.ms / 1000).toFixed(1)} s (after "${slowest.step}")`);
    return tally.finish();
  });
}

async function waitForLive(counted: Counted[], targets: FaultTargets): Promise<void> {
  const since = { at: 0, position: {} };
  for (const { frontEnd, tally } of counted) {
    for (const server of ['machine', 'session'] as const) {
      const resumed = await frontEnd.liveResumed(server, since, 20_000);
      tally.expect(resumed !== undefined, `${frontEnd.name} showed no live value from the ${server} server before the faults (sockets: ${targets.liveSockets()})`);
    }
  }
}

async function playStep(step: FaultStep, targets: FaultTargets, counted: Counted[]): Promise<void> {
  const marks = await Promise.all(counted.map(({ frontEnd }) => frontEnd.mark()));
  const commands: Promise<void>[] = [];
  const send = (index: number): void => {
    for (const entry of counted) commands.push(countCommand(entry, step, index));
  };
  await step.start(targets);
  for (const entry of counted) if (entry.frontEnd.turnDial) commands.push(countDialTurn(entry, step));
  const started = Date.now();
  for (let index = 0; Date.now() - started < step.holdMs; index++) {
    send(index);
    await sleep(COMMAND_EVERY_MS);
  }
  await step.end(targets);
  const ended = await Promise.all(counted.map(({ frontEnd }) => frontEnd.mark()));
  send(1_000_000);
  await Promise.all(commands);
  for (const [index, entry] of counted.entries()) await checkLive(entry, step, targets, marks[index], ended[index]);
}

async function countCommand({ tally, frontEnd }: Counted, step: FaultStep, index: number): Promise<void> {
  tally.inputs++;
  const outcome = await frontEnd.command(step.server, index);
  if (outcome === 'ack') tally.ok++;
  else if (outcome === 'error') tally.errors++;
  else if (typeof outcome === 'object') tally.finding(`a cue sent during "${step.name}" failed with an unclear error: ${brief(outcome.unclear)}`);
  else {
    tally.silentLosses++;
    tally.finding(`a cue sent during "${step.name}" got neither an ack nor an error`);
  }
}

/** A dial turned while the fault holds: the server ends with the value the dial shows, or the dial alerts. */
async function countDialTurn({ tally, frontEnd, dials }: Counted, step: FaultStep): Promise<void> {
  tally.inputs++;
  const outcome = await frontEnd.turnDial?.(step.server, dials.turned++);
  countTurnOutcome(outcome, tally, dials, `a dial turn during "${step.name}"`);
}

async function checkLive({ tally, frontEnd, resumeTimes }: Counted, step: FaultStep, targets: FaultTargets, before: Awaited<ReturnType<FaultFrontEnd['mark']>> | undefined, after: Awaited<ReturnType<FaultFrontEnd['mark']>> | undefined): Promise<void> {
  if (!(await frontEnd.alive())) {
    tally.crashes++;
    tally.finding(`${frontEnd.name} is down after "${step.name}"`);
    return;
  }
  if (!before || !after) return;
  if (step.movesDirector && !targets.namesResolve && !frontEnd.followsUnresolvedDirector) {
    tally.note(`live values after "${step.name}" not checked: ${frontEnd.name} cannot be told where a director whose name does not resolve is`);
    return;
  }
  if (step.dropsLive) tally.expect(await frontEnd.showedOffline(step.server, before), `${frontEnd.name} kept showing the live value as live through "${step.name}"`);
  const resumed = await frontEnd.liveResumed(step.server, after, RESUME_LIMIT_MS);
  if (resumed === undefined) tally.finding(`${frontEnd.name}: live values did not resume within ${RESUME_LIMIT_MS / 1000} s after "${step.name}"`);
  else resumeTimes.push({ step: step.name, ms: resumed });
}

/** One live socket per server while the front ends watch, none once they stop (the plugin after its idle grace). */
async function checkSockets(targets: FaultTargets, counted: Counted[], deck: DeckFaultFrontEnd): Promise<void> {
  // Two front ends, each one socket per server: the machine and the session's director.
  const expected = 2 * 2;
  const settled = await waitUntil(() => targets.liveSockets() === expected, 15_000);
  const [nodeRed, plugin] = counted;
  if (!settled && nodeRed && plugin) {
    const extra = Math.max(0, targets.liveSockets() - expected);
    nodeRed.tally.leakedSockets += extra;
    nodeRed.tally.finding(`${targets.liveSockets()} live sockets open on the two servers after the faults, ${expected} expected (one per server per front end)`);
  }
  for (const { frontEnd } of counted) await frontEnd.release();
  const released = await waitUntil(() => targets.liveSockets() === 0, 15_000);
  if (!released && plugin) {
    plugin.tally.leakedSockets += targets.liveSockets();
    plugin.tally.finding(`${targets.liveSockets()} live sockets still open 15 s after the flow and the keys were removed`);
  }
  const balance = deck.balance();
  plugin?.tally.note(`${balance.pressed} cue key presses, ${balance.answered} answered with OK or an alert`);
  plugin?.tally.expect(balance.answered === balance.pressed, `${balance.pressed} presses but ${balance.answered} answers on the cue keys`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
