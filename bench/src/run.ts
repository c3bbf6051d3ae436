import { bridgeFanout } from './benchmarks/bridge-fanout.js';
import { bridgeRecord } from './benchmarks/bridge-record.js';
import { bridgeWholeVenue } from './benchmarks/bridge-whole-venue.js';
import { bridgeSummary } from './benchmarks/bridge-summary.js';
import { bridgeVenueIo } from './benchmarks/bridge-venue-io.js';
import { companionFeedbackChecks } from './benchmarks/companion-feedback-checks.js';
import { companionLive } from './benchmarks/companion-live.js';
import { cuePath } from './benchmarks/cue-path.js';
import { deskLatency } from './benchmarks/desk-latency.js';
import { dialStripRate } from './benchmarks/dial-strip-rate.js';
import { driveListing } from './benchmarks/drive-listing.js';
import { hardwarePoll } from './benchmarks/hardware-poll.js';
import { liveFanOut } from './benchmarks/live-fan-out.js';
import { livePacing } from './benchmarks/live-pacing.js';
import { nodeRedCue } from './benchmarks/node-red-cue.js';
import { pacedSubscriptions } from './benchmarks/paced-subscriptions.js';
import { reconnect } from './benchmarks/reconnect.js';
import { showClock } from './benchmarks/show-clock.js';
import { showReport } from './benchmarks/show-report.js';
import { soak } from './benchmarks/soak.js';
import { streamdeckTiles } from './benchmarks/streamdeck-tiles.js';
import { machineInfo } from './harness/machine.js';
import { notRun, type Benchmark, type BenchmarkFlags, type BenchmarkOutcome, type BenchmarkResult } from './harness/report.js';
import { writeResults } from './harness/results-file.js';
import { resultsTable } from './harness/table.js';

/** In the order of bench/RESULTS.md. `pnpm bench <id> ...` runs only those. */
const BENCHMARKS: readonly Benchmark[] = [cuePath, nodeRedCue, liveFanOut, pacedSubscriptions, livePacing, driveListing, reconnect, streamdeckTiles, deskLatency, dialStripRate, bridgeFanout, bridgeSummary, bridgeVenueIo, bridgeRecord, companionLive, companionFeedbackChecks, showClock, showReport, hardwarePoll, bridgeWholeVenue];

/** Run only when named: `pnpm bench soak --minutes 6`. */
const ON_REQUEST: readonly Benchmark[] = [soak];

async function main(argv: readonly string[]): Promise<void> {
  const { ids, flags } = splitArguments(argv);
  const known = [...BENCHMARKS, ...ON_REQUEST];
  const unknown = ids.filter((id) => !known.some((benchmark) => benchmark.id === id));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown benchmark ${unknown.join(', ')}: choose from ${known.map((b) => b.id).join(', ')}.\n`);
    process.exitCode = 2;
    return;
  }
  const chosen = ids.length === 0 ? BENCHMARKS : known.filter((benchmark) => ids.includes(benchmark.id));
  const machine = machineInfo();
  process.stderr.write(`${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, load ${machine.loadAverage.join(' ')}\n`);
  const results: BenchmarkResult[] = [];
  for (const benchmark of chosen) results.push(await runOne(benchmark, flags));
  process.stdout.write(`\n${resultsTable(results)}\n\n`);
  process.stdout.write(`Durations: ${results.map((result) => `${result.name} ${result.seconds} s`).join(', ')}\n`);
  process.stdout.write(`Written to ${await writeResults(machine, results)}\n`);
}

/** One benchmark, timed; one that throws becomes a `not run` row with the reason, and the others still run. */
/** Benchmark ids, and `--name value` flags for the benchmarks that take them. */
function splitArguments(argv: readonly string[]): { ids: string[]; flags: BenchmarkFlags } {
  const ids: string[] = [];
  const flags: Record<string, string> = {};
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    if (argument.startsWith('--')) flags[argument.slice(2)] = argv[++index] ?? '';
    else ids.push(argument);
  }
  return { ids, flags };
}

async function runOne(benchmark: Benchmark, flags: BenchmarkFlags): Promise<BenchmarkResult> {
  const log = (line: string): void => void process.stderr.write(`[${benchmark.id}] ${line}\n`);
  const started = performance.now();
  log('start');
  let outcome: BenchmarkOutcome;
  try {
    outcome = await benchmark.run(log, flags);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    outcome = { rows: [notRun('all', '-', `failed: ${reason}`)], details: {} };
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  log(`done in ${seconds} s`);
  return { name: benchmark.name, subject: benchmark.subject, baseline: benchmark.baseline, seconds, ...outcome };
}

await main(process.argv.slice(2));
