import { MediaServer } from '@stagelink/core';
import { startSimulator } from '@stagelink/simulator';
import { request } from 'undici';
import { compareRounds } from '../harness/compare.js';
import { micros, perSecond } from '../harness/format.js';
import { startQuietSimulatorProcess } from '../harness/quiet-simulator-process.js';
import { atMost, type Benchmark, type ResultRow } from '../harness/report.js';
import { median, p99 } from '../harness/stats.js';
import { concurrentLatencies, cpuPerCall, interleavedRounds, sequentialLatencies, type Call, type ConcurrentRun } from '../harness/timing.js';

const ROUNDS = 12;
/**
 * CPU time per call moves in steps as other work comes and goes on the machine (about 75 against 130 µs a cue here,
 * for either client): many short rounds, interleaved, put both clients in each step alike.
 */
const CPU_ROUNDS = 48;
/** Calls of each contender: once to warm up, then per round, one at a time and from concurrent callers. */
const CALLS = { warmUp: 2000, sequential: 1000, concurrent: 1600, cpu: 250 };
const CALLERS = 16;
const LIMIT = 1.15;
const TARGET = `<= ${LIMIT}x undici`;

/** The same cue three ways: what core sends for `transport.play({ name: 'main' })`, answer read as JSON. */
interface CueCalls {
  core: Call;
  undici: Call;
  fetch: Call;
}

/** A subject (core, or global fetch for the reference rows) beside undici, in rounds of one run. */
interface Pair {
  sequential: Record<'subject' | 'undici', number[][]>;
  concurrent: Record<'subject' | 'undici', ConcurrentRun[]>;
}

interface Rounds {
  core: Pair;
  fetch: Pair;
  /** This process's CPU time per cue, in ms, one value per round; the simulator in a process of its own. */
  cpu: Record<'core' | 'undici', number[]>;
}

export const cuePath: Benchmark = {
  id: 'cue-path',
  name: 'cue path',
  subject: 'core `transport.play` against the simulator',
  baseline: 'bare `undici.request` and global `fetch` to the same URL',
  async run(log) {
    const { core, fetch } = await latencyRounds(log);
    // After the in-process simulator has closed: nothing of it may run on this process's CPU meanwhile.
    log(`CPU per cue, the simulator in its own process: ${CPU_ROUNDS} rounds of ${CALLS.cpu} calls each`);
    const cpu = await cpuRounds();
    return { rows: rows({ core, fetch, cpu }), details: details({ core, fetch, cpu }) };
  },
};

/**
 * Core beside undici, then global fetch beside undici for the reference rows. Fetch comes last because of what
 * it leaves in the heap: its response streams outlive their requests until a full collection (they are watched
 * by a FinalizationRegistry), so every young-generation collection after it copies them and takes milliseconds
 * instead of a fraction of one. Among core's and undici's calls such a pause lands in the calls of whichever
 * allocates more, and it is the p99 of a round.
 */
async function latencyRounds(log: (line: string) => void): Promise<Omit<Rounds, 'cpu'>> {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
  const mediaServer = new MediaServer({ host: sim.mediaServer.url });
  try {
    const calls = cueCalls(mediaServer, `${sim.mediaServer.url}/api/session/transport/play`);
    log(`core and undici: ${ROUNDS} rounds of ${CALLS.sequential} calls one at a time, then of ${CALLS.concurrent} from ${CALLERS} callers`);
    const core = await pairRounds(calls.core, calls.undici);
    log(`global fetch and undici, the same`);
    const fetch = await pairRounds(calls.fetch, calls.undici);
    return { core, fetch };
  } finally {
    await mediaServer.close();
    await sim.close();
  }
}

async function pairRounds(subject: Call, undici: Call): Promise<Pair> {
  for (const call of [subject, undici]) await sequentialLatencies(call, CALLS.warmUp);
  const both = <T>(run: (call: Call) => Promise<T>) => ({ subject: () => run(subject), undici: () => run(undici) });
  const sequential = await interleavedRounds(ROUNDS, both((call) => sequentialLatencies(call, CALLS.sequential)));
  const concurrent = await interleavedRounds(ROUNDS, both((call) => concurrentLatencies(call, CALLS.concurrent, CALLERS)));
  return { sequential, concurrent };
}

/**
 * The CPU time this process spends per cue, core against undici, one cue at a time: what core itself costs,
 * steadier than latency on a shared machine, where other work takes the CPU for milliseconds at a time and only
 * the wall clock sees it. The simulator runs in its own process so that its work is not counted.
 */
async function cpuRounds(): Promise<Rounds['cpu']> {
  const sim = await startQuietSimulatorProcess();
  const mediaServer = new MediaServer({ host: sim.mediaServerUrl });
  try {
    const { core, undici } = cueCalls(mediaServer, `${sim.mediaServerUrl}/api/session/transport/play`);
    for (const call of [core, undici]) await sequentialLatencies(call, CALLS.warmUp);
    return await interleavedRounds(CPU_ROUNDS, { core: () => cpuPerCall(core, CALLS.cpu), undici: () => cpuPerCall(undici, CALLS.cpu) });
  } finally {
    await mediaServer.close();
    await sim.stop();
  }
}

function cueCalls(mediaServer: MediaServer, url: string): CueCalls {
  const init = {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ transports: [{ name: 'main' }] }),
  } as const;
  return {
    core: () => mediaServer.transport.play({ name: 'main' }),
    undici: async () => (await request(url, init)).body.json(),
    fetch: async () => (await fetch(url, init)).json(),
  };
}

const STATISTICS = [
  ['p50', median],
  ['p99', p99],
] as const;

const latencies = (run: ConcurrentRun): number[] => run.latencies;
const throughput = (run: ConcurrentRun): number => (run.latencies.length / run.elapsedMs) * 1000;

function rows({ core, fetch, cpu }: Rounds): ResultRow[] {
  const modes = [
    ['sequential', (pair: Pair) => pair.sequential],
    [`${CALLERS} concurrent`, (pair: Pair) => ({ subject: pair.concurrent.subject.map(latencies), undici: pair.concurrent.undici.map(latencies) })],
  ] as const;
  const latencyRows = modes.flatMap(([mode, roundsOf]) =>
    STATISTICS.flatMap(([name, statistic]) => {
      const [withCore, withFetch] = [roundsOf(core), roundsOf(fetch)];
      return [
        latencyRow(`${mode} ${name}`, withCore.subject.map(statistic), withCore.undici.map(statistic), true),
        latencyRow(`${mode} ${name}, global fetch`, withFetch.subject.map(statistic), withFetch.undici.map(statistic), false),
      ];
    }),
  );
  return [...latencyRows, throughputRow(core.concurrent), cpuRow(cpu)];
}

/** Core rows carry the target; global fetch rows are a reference, beside undici's rounds of their own. */
function latencyRow(caseName: string, subject: number[], undici: number[], isCore: boolean): ResultRow {
  const comparison = compareRounds(subject, undici);
  return {
    case: caseName,
    subject: micros(comparison.subject),
    baseline: micros(comparison.baseline),
    ratioLabel: isCore ? 'core / undici' : 'fetch / undici',
    ratio: comparison.ratio,
    ratioRange: comparison.ratioRange,
    target: isCore ? TARGET : 'reference',
    verdict: isCore ? atMost(comparison.ratio, LIMIT) : 'reported',
  };
}

function throughputRow(concurrent: Pair['concurrent']): ResultRow {
  const comparison = compareRounds(concurrent.subject.map(throughput), concurrent.undici.map(throughput));
  return {
    case: `${CALLERS} concurrent throughput`,
    subject: perSecond(comparison.subject, 'cues'),
    baseline: perSecond(comparison.baseline, 'cues'),
    ratioLabel: 'core / undici',
    ratio: comparison.ratio,
    ratioRange: comparison.ratioRange,
    target: 'reported',
    verdict: 'reported',
  };
}

function cpuRow(cpu: Rounds['cpu']): ResultRow {
  const comparison = compareRounds(cpu.core, cpu.undici);
  return {
    case: 'sequential CPU per cue',
    subject: micros(comparison.subject),
    baseline: micros(comparison.baseline),
    ratioLabel: 'core / undici',
    ratio: comparison.ratio,
    ratioRange: comparison.ratioRange,
    target: 'reported',
    verdict: 'reported',
    note: `this process's CPU time (user + system) per cue, the simulator in its own process; core minus undici: ${signedMicros(comparison.subject - comparison.baseline)}`,
  };
}

function signedMicros(ms: number): string {
  return ms > 0 ? `+${micros(ms)}` : micros(ms);
}

function details({ core, fetch, cpu }: Rounds): Record<string, unknown> {
  const summary = (rounds: number[][]) => ({ p50PerRoundMs: rounds.map(median), p99PerRoundMs: rounds.map(p99) });
  const pair = ({ sequential, concurrent }: Pair, subject: string) =>
    Object.fromEntries(
      (['subject', 'undici'] as const).map((name) => [
        name === 'subject' ? subject : 'undici',
        {
          sequential: summary(sequential[name]),
          concurrent: { ...summary(concurrent[name].map(latencies)), callsPerSecond: concurrent[name].map(throughput) },
        },
      ]),
    );
  return {
    rounds: ROUNDS,
    cpuRounds: CPU_ROUNDS,
    callsPerRound: { sequential: CALLS.sequential, concurrent: CALLS.concurrent, cpu: CALLS.cpu },
    callers: CALLERS,
    coreBesideUndici: pair(core, 'core'),
    fetchBesideUndici: pair(fetch, 'fetch'),
    cpuPerCallPerRoundMs: cpu,
  };
}
