import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startSimulator } from '@stagelink/simulator';
import { request } from 'undici';
import { compareRounds } from '../harness/compare.js';
import { micros, millis, perSecond } from '../harness/format.js';
import { startNodeRed, type NodeRedProcess } from '../harness/node-red-process.js';
import { atLeast, notRun, type Benchmark, type ResultRow, type Verdict } from '../harness/report.js';
import { median, p99 } from '../harness/stats.js';
import { interleavedRounds, processCpuMs } from '../harness/timing.js';
import { benchFlow, CONTENDERS, type Contender, type FlowRun } from './node-red-flow.js';

const MODES = [
  { inFlight: 1, count: 300 },
  { inFlight: 16, count: 3000 },
] as const;
const ROUNDS = 7;
const WARM_UP = { inFlight: 4, count: 200 };
const THROUGHPUT_FACTOR = 3;
const NODE_TYPES = ['stagelink-server', 'stagelink-transport'];

type Mode = (typeof MODES)[number];
/** A run as the flow timed it, and the CPU time the Node-RED process spent meanwhile. */
type MeasuredRun = FlowRun & { nodeRedCpuMs: number };
type ModeRounds = { mode: Mode } & Record<Contender, MeasuredRun[]>;

export const nodeRedCue: Benchmark = {
  id: 'node-red-cue',
  name: 'Node-RED cue',
  subject: '`stagelink-transport` firing cues in a running Node-RED 4.1',
  baseline: 'the `http request` node making the same call in the same runtime',
  async run(log) {
    const nodesDir = builtNodesDir();
    if (typeof nodesDir !== 'string') return { rows: [notRun('all', `>= ${THROUGHPUT_FACTOR}x throughput, lower p99`, nodesDir.reason)], details: {} };
    const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
    try {
      const red = await startNodeRed({ flows: benchFlow(sim.mediaServer.url), nodesDir });
      try {
        for (const contender of CONTENDERS) await runInNodeRed(red, contender, WARM_UP);
        const results: ModeRounds[] = [];
        for (const mode of MODES) {
          log(`${mode.inFlight} in flight: ${ROUNDS} rounds of ${mode.count} cues per contender`);
          const runs = await interleavedRounds(ROUNDS, contenderRuns(red, mode));
          results.push({ mode, ...runs });
        }
        return { rows: results.flatMap(rows), details: details(results) };
      } finally {
        await red.stop();
      }
    } finally {
      await sim.close();
    }
  },
};

/** The folder of built node files, or why the row cannot run. */
function builtNodesDir(): string | { reason: string } {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('@stagelink/node-red/package.json'));
  } catch {
    return { reason: '@stagelink/node-red is not installed in the workspace' };
  }
  const nodesDir = join(packageDir, 'dist', 'nodes');
  const missing = NODE_TYPES.filter((type) => !existsSync(join(nodesDir, `${type}.js`)));
  return missing.length === 0 ? nodesDir : { reason: `packages/node-red is not built (${missing.join(', ')} missing)` };
}

function contenderRuns(red: NodeRedProcess, mode: Mode): Record<Contender, () => Promise<MeasuredRun>> {
  const run = (contender: Contender) => () => runInNodeRed(red, contender, mode);
  return { transport: run('transport'), http: run('http'), httpKeepAlive: run('httpKeepAlive') };
}

async function runInNodeRed(red: NodeRedProcess, contender: Contender, mode: { inFlight: number; count: number }): Promise<MeasuredRun> {
  const cpuBefore = processCpuMs(red.pid);
  const response = await request(`${red.url}/bench/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ contender, ...mode }),
    headersTimeout: 120_000,
  });
  const run = (await response.body.json()) as FlowRun;
  if (response.statusCode !== 200 || !Array.isArray(run.latencies)) {
    throw new Error(`Node-RED answered ${response.statusCode} to a ${contender} run: ${JSON.stringify(run).slice(0, 300)}`);
  }
  return { ...run, nodeRedCpuMs: processCpuMs(red.pid) - cpuBefore };
}

const cues = (run: FlowRun): number => run.latencies.length + run.failed;
const throughput = (run: FlowRun): number => (cues(run) / run.elapsedMs) * 1000;
const cpuPerCue = (run: MeasuredRun): number => run.nodeRedCpuMs / cues(run);

/** A statistic of one run and how the table shows it. */
interface Measure {
  name: string;
  of: (run: MeasuredRun) => number;
  format: (value: number) => string;
}

interface Target {
  text: string;
  verdict: (ratio: number) => Verdict;
}

const THROUGHPUT: Measure = { name: 'throughput', of: throughput, format: (value) => perSecond(value, 'cues') };
const CPU_PER_CUE: Measure = { name: 'Node-RED CPU per cue', of: cpuPerCue, format: micros };
const P50: Measure = { name: 'p50', of: (run) => median(run.latencies), format: millis };
const P99: Measure = { name: 'p99', of: (run) => p99(run.latencies), format: millis };

const MORE_THROUGHPUT: Target = { text: `>= ${THROUGHPUT_FACTOR}x http request`, verdict: (ratio) => atLeast(ratio, THROUGHPUT_FACTOR) };
const LOWER_P99: Target = { text: 'lower than http request', verdict: (ratio) => (ratio < 1 ? 'met' : 'missed') };
const REPORTED: Target = { text: 'reported', verdict: () => 'reported' };
const REFERENCE: Target = { text: 'reference', verdict: () => 'reported' };

/** Throughput has a target with many cues in flight; p99 with one and with many. */
function rows({ mode, transport, http, httpKeepAlive }: ModeRounds): ResultRow[] {
  const label = `${mode.inFlight} in flight`;
  const failed = [...transport, ...http, ...httpKeepAlive].reduce((sum, run) => sum + run.failed, 0);
  const compare = (measure: Measure, target: Target, baseline = http, suffix = ''): ResultRow => ({
    ...row(`${label} ${measure.name}${suffix}`, transport, baseline, measure, target),
    ...(failed > 0 ? { note: `${failed} cues failed` } : {}),
  });
  const latencyRows = [compare(CPU_PER_CUE, REPORTED), compare(P50, REPORTED), compare(P99, LOWER_P99)];
  if (mode.inFlight === 1) return latencyRows;
  return [compare(THROUGHPUT, MORE_THROUGHPUT), ...latencyRows, compare(THROUGHPUT, REFERENCE, httpKeepAlive, ', http request with keep-alive')];
}

function row(caseName: string, subject: MeasuredRun[], baseline: MeasuredRun[], measure: Measure, target: Target): ResultRow {
  const comparison = compareRounds(subject.map(measure.of), baseline.map(measure.of));
  return {
    case: caseName,
    subject: measure.format(comparison.subject),
    baseline: measure.format(comparison.baseline),
    ratioLabel: 'transport / http',
    ratio: comparison.ratio,
    ratioRange: comparison.ratioRange,
    target: target.text,
    verdict: target.verdict(comparison.ratio),
  };
}

function details(results: ModeRounds[]): Record<string, unknown> {
  const summary = (runs: MeasuredRun[]) =>
    runs.map((run) => ({
      cuesPerSecond: throughput(run),
      nodeRedCpuMsPerCue: cpuPerCue(run),
      p50Ms: median(run.latencies),
      p99Ms: p99(run.latencies),
      failed: run.failed,
    }));
  return {
    rounds: ROUNDS,
    modes: results.map(({ mode, transport, http, httpKeepAlive }) => ({
      ...mode,
      transport: summary(transport),
      httpRequest: summary(http),
      httpRequestKeepAlive: summary(httpKeepAlive),
    })),
  };
}
