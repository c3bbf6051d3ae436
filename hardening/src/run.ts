import { setMaxListeners } from 'node:events';
import { DIALECT_ENV, DIALECTS, type Dialect } from '@stagelink/simulator';
import { BUDGETS, type Budget, type Lane, type RunContext } from './context.js';
import { coreMalformedAnswers } from './areas/core-malformed.js';
import { nodeRedMessages } from './areas/node-red-messages.js';
import { nodeRedSettings } from './areas/node-red-settings.js';
import { nodeRedMalformedAnswers } from './areas/node-red-malformed.js';
import { guardedOperations } from './areas/guarded.js';
import { deckInputs } from './areas/deck-inputs.js';
import { serverFaults } from './areas/faults.js';
import { redeploys } from './areas/redeploys.js';
import { secrets } from './areas/secrets.js';
import { fieldFaults } from './areas/field-faults.js';
import { NodeRedSession } from './node-red/session.js';
import { Random } from './gen/random.js';
import { summaryTable } from './report/table.js';
import type { Tally } from './report/tally.js';
import { CrashGuard } from './support/crash-guard.js';

/** What the areas of one lane share: started on first use, closed at the end of the lane. */
class Shared {
  #nodeRed: Promise<NodeRedSession> | undefined;

  constructor(
    private readonly seed: number,
    private readonly dialect: Dialect,
  ) {}

  nodeRed(): Promise<NodeRedSession> {
    this.#nodeRed ??= NodeRedSession.start(this.seed, this.dialect);
    return this.#nodeRed;
  }

  async close(): Promise<void> {
    await (await this.#nodeRed)?.close();
  }
}

interface Area {
  id: string;
  /** One tally per row of the summary (an area may fill several). */
  run(context: RunContext, shared: Shared): Promise<Tally | Tally[]>;
}

const AREAS: readonly Area[] = [
  { id: 'core', run: (context) => coreMalformedAnswers(context) },
  { id: 'messages', run: async (context, shared) => nodeRedMessages(context, await shared.nodeRed()) },
  { id: 'settings', run: async (context, shared) => nodeRedSettings(context, await shared.nodeRed()) },
  { id: 'malformed', run: async (context, shared) => nodeRedMalformedAnswers(context, await shared.nodeRed()) },
  { id: 'guarded', run: async (context, shared) => guardedOperations(context, await shared.nodeRed()) },
  { id: 'deck', run: (context) => deckInputs(context) },
  { id: 'faults', run: async (context, shared) => serverFaults(context, await shared.nodeRed()) },
  { id: 'secrets', run: async (context, shared) => secrets(context, await shared.nodeRed()) },
  { id: 'redeploys', run: async (context, shared) => redeploys(context, await shared.nodeRed()) },
  { id: 'field', run: (context) => fieldFaults(context) },
];

interface Options {
  budget: Budget;
  seed: number;
  only: string[] | undefined;
  /** The budget's lanes, or the one dialect asked for. */
  lanes: readonly Lane[];
}

function parseOptions(args: readonly string[]): Options {
  const value = (name: string): string | undefined => {
    const index = args.indexOf(`--${name}`);
    return index === -1 ? undefined : args[index + 1];
  };
  const seed = Number(value('seed') ?? process.env.HARDENING_SEED ?? 20_250_101);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed must be a whole number (got ${String(value('seed'))}).`);
  const budget = args.includes('--full') ? BUDGETS.full : BUDGETS.ci;
  const dialect = value('dialect') ?? process.env[DIALECT_ENV];
  if (dialect !== undefined && !DIALECTS.includes(dialect as Dialect)) throw new Error(`--dialect must be one of ${DIALECTS.join(', ')} (got ${dialect}).`);
  return {
    budget,
    seed,
    only: value('only')?.split(','),
    lanes: dialect === undefined ? budget.lanes : [{ dialect: dialect as Dialect }],
  };
}

/** The areas a lane runs: the lane's own, narrowed by --only. */
function areasOf(lane: Lane, only: readonly string[] | undefined): Area[] {
  return AREAS.filter((area) => (!lane.areas || lane.areas.includes(area.id)) && (!only || only.includes(area.id)));
}

async function main(): Promise<number> {
  // The in-process simulators put one abort listener per delayed request on their shutdown signal; a stall
  // with many cues waiting is expected here, not a leak.
  setMaxListeners(200);
  const options = parseOptions(process.argv.slice(2));
  const crashes = new CrashGuard();
  crashes.install();
  const progress = (line: string): void => console.log(`hardening: ${line}`);
  const lanes = options.lanes.map((lane) => lane.dialect).join(' and ');
  progress(`${options.budget.name} run, seed ${options.seed}, simulator dialects ${lanes} (replay with --seed ${options.seed})`);
  const started = performance.now();
  const tallies: Tally[] = [];
  const replays: string[] = [];
  for (const lane of options.lanes) {
    const random = new Random(options.seed);
    const context: RunContext = { seed: options.seed, random, budget: options.budget, dialect: lane.dialect, progress };
    // The first lane's rows keep their names; the others' say their dialect.
    const label = lane === options.lanes[0] ? '' : ` (${lane.dialect})`;
    const shared = new Shared(options.seed, lane.dialect);
    try {
      for (const area of areasOf(lane, options.only)) {
        progress(`--- ${area.id}${label}`);
        const result = await crashes.during(area.id, () => area.run({ ...context, random: random.fork(area.id) }, shared));
        for (const tally of result) {
          tally.area += label;
          progress(`${tally.area}: ${tally.inputs} inputs in ${(tally.durationMs / 1000).toFixed(1)} s${tally.failed ? ' (FAILED)' : ''}`);
          tallies.push(tally);
          if (tally.failed) replays.push(`--${options.budget.name} --seed ${options.seed} --dialect ${lane.dialect} --only ${area.id}`);
        }
      }
    } finally {
      await shared.close();
    }
  }
  const outside = await crashes.outsideAreas();
  if (outside) tallies.push(outside);
  crashes.close();
  console.log(`\nstagelink hardening (${options.budget.name}, seed ${options.seed}, ${lanes})\n`);
  console.log(summaryTable(tallies, performance.now() - started));
  const failed = tallies.some((tally) => tally.failed);
  const replay = [...new Set(replays)].map((args) => `\n  pnpm --filter @stagelink/hardening exec tsx src/run.ts ${args}`).join('');
  console.log(failed ? `\nFAILED: see the findings above. Replay:${replay}` : '\nPASSED: no crash, no silent loss, no leaked socket, no stale value shown as live, no resent cue, no finding.');
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(2);
  },
);
