import { mkdirSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { livePresets, MediaServer, reasonOf, type LiveRequest } from '@stagelink/core';
import { simControl } from '@stagelink/simulator';
import { millis } from '../harness/format.js';
import { codeSpaceMB, heapAfterGcMB, heapSnapshot, slope } from '../harness/heap.js';
import { atMost, type Benchmark, type BenchmarkFlags, type ResultRow } from '../harness/report.js';
import { median } from '../harness/stats.js';
import { startSimulatorProcess } from '../harness/simulator-process.js';

/** A show's length of core's live path and cues, watching the heap: `pnpm bench soak [--minutes 60]`. */

const VALUES = 20;
const VALUE_INTERVAL_MS = 100;
const CUE_EVERY_MS = 200;
const DROP_EVERY_MS = 60_000;
const SAMPLE_EVERY_MS = 30_000;
const DEFAULT_MINUTES = 60;
/**
 * The heap settles in the first minutes (code compiled, pools filled; paths that run once a minute are optimised
 * last): growth is fitted after the first sixth of the run, at most 10 minutes.
 */
const settleMinutes = (minutes: number): number => Math.min(10, minutes / 6);
const GROWTH_TARGET_MB_PER_HOUR = 1;

interface HeapSample {
  minute: number;
  heapMB: number;
  /** Of it, compiled code (V8's code space). */
  codeMB: number;
}

interface Tally {
  values: number;
  cuesSent: number;
  cuesAnswered: number;
  cueFailures: string[];
  drops: number;
  /** From each drop to the next value of every subscription (ms); missing where one never came back. */
  backAfterDropMs: number[];
  liveErrors: string[];
  offline: number;
}

export const soak: Benchmark = {
  id: 'soak',
  name: 'soak',
  subject: `core: ${VALUES} live values every ${VALUE_INTERVAL_MS} ms, a cue every ${CUE_EVERY_MS} ms, the live socket dropped every ${DROP_EVERY_MS / 60_000} minute`,
  baseline: 'none: the target is absolute (heap growth after the first minutes, every cue answered)',
  async run(log, flags) {
    const minutes = minutesOf(flags);
    const snapshots = flags['heap-snapshots'];
    if (snapshots) mkdirSync(snapshots, { recursive: true });
    const sim = await startSimulatorProcess(0, ['--scenario', 'venue', '--machines', String(VALUES)]);
    const ms = new MediaServer({ host: sim.mediaServerUrl });
    const tally: Tally = { values: 0, cuesSent: 0, cuesAnswered: 0, cueFailures: [], drops: 0, backAfterDropMs: [], liveErrors: [], offline: 0 };
    const samples: HeapSample[] = [];
    const started = performance.now();
    const minute = () => (performance.now() - started) / 60_000;
    const end = started + minutes * 60_000;
    const watch = watchValues(ms, sim.machines.map((machine) => machine.hostname), tally);
    try {
      log(`${minutes} minutes; heap after GC every ${SAMPLE_EVERY_MS / 1000} s`);
      const sampling = (async () => {
        while (performance.now() < end) {
          await delay(Math.min(SAMPLE_EVERY_MS, Math.max(0, end - performance.now())));
          const sample = { minute: minute(), heapMB: heapAfterGcMB(), codeMB: codeSpaceMB() };
          samples.push(sample);
          log(`minute ${sample.minute.toFixed(1)}: heap ${sample.heapMB.toFixed(2)} MB (code ${sample.codeMB.toFixed(2)} MB), ${tally.cuesAnswered}/${tally.cuesSent} cues answered, ${tally.drops} drops, ${tally.values} values`);
          if (snapshots && (samples.length === Math.max(1, Math.round((settleMinutes(minutes) * 60_000) / SAMPLE_EVERY_MS)) || performance.now() >= end)) {
            log(`heap snapshot: ${heapSnapshot(snapshots, `minute-${Math.round(sample.minute)}`)}`);
          }
        }
      })();
      await Promise.all([sampling, cueLoop(ms, end, tally), dropLoop(sim.mediaServerUrl, end, watch, tally)]);
    } finally {
      watch.close();
      await ms.close();
      await sim.stop();
    }
    return { rows: rows(minutes, samples, tally), details: { minutes, values: VALUES, samples, tally } };
  },
};

function minutesOf(flags: BenchmarkFlags): number {
  const given = flags['minutes'];
  if (given === undefined) return DEFAULT_MINUTES;
  const minutes = Number(given);
  if (!Number.isFinite(minutes) || minutes <= 0) throw new Error(`--minutes must be a positive number (got "${given}").`);
  return minutes;
}

/** Every machine's FPS, each its own value at the director; answers a hook the drop loop times recovery with. */
function watchValues(ms: MediaServer, hostnames: string[], tally: Tally) {
  const [director, ...others] = hostnames;
  const requests: LiveRequest[] = [livePresets.localFps(), ...others.map((hostname) => livePresets.remoteFps(hostname))].slice(0, VALUES);
  if (director === undefined || requests.length < VALUES) throw new Error(`The venue lists ${hostnames.length} machines; the soak needs ${VALUES}.`);
  let waiting: { since: number; pending: Set<number> } | undefined;
  const subscriptions = requests.map((request, index) =>
    ms.live.subscribe(
      { ...request, updateFrequencyMs: VALUE_INTERVAL_MS },
      () => {
        tally.values++;
        if (!waiting?.pending.delete(index)) return;
        if (waiting.pending.size === 0) {
          tally.backAfterDropMs.push(performance.now() - waiting.since);
          waiting = undefined;
        }
      },
      {
        onError: (error) => void (tally.liveErrors.length < 10 && tally.liveErrors.push(reasonOf(error))),
        onStatus: (status) => void (status === 'offline' && tally.offline++),
      },
    ),
  );
  return {
    /** From now, waits for a value of every subscription. */
    dropped: () => void (waiting = { since: performance.now(), pending: new Set(requests.keys()) }),
    close: () => {
      for (const subscription of subscriptions) subscription.close();
    },
  };
}

/** One cue at a time, every CUE_EVERY_MS: play and stop in turn, so each moves the transport. */
async function cueLoop(ms: MediaServer, end: number, tally: Tally): Promise<void> {
  while (performance.now() < end) {
    const due = performance.now() + CUE_EVERY_MS;
    const cue = tally.cuesSent++ % 2 === 0 ? ms.transport.play({ name: 'main' }) : ms.transport.stop({ name: 'main' });
    try {
      await cue;
      tally.cuesAnswered++;
    } catch (error) {
      if (tally.cueFailures.length < 10) tally.cueFailures.push(reasonOf(error));
    }
    await delay(Math.max(0, due - performance.now()));
  }
}

async function dropLoop(url: string, end: number, watch: { dropped(): void }, tally: Tally): Promise<void> {
  while (performance.now() + DROP_EVERY_MS < end) {
    await delay(DROP_EVERY_MS);
    watch.dropped();
    await simControl(url, { action: 'dropSockets' });
    tally.drops++;
  }
}

function rows(minutes: number, samples: HeapSample[], tally: Tally): ResultRow[] {
  const settled = samples.filter((sample) => sample.minute >= settleMinutes(minutes) - 0.01);
  const perHour = slope(settled.map(({ minute, heapMB }) => ({ x: minute / 60, y: heapMB })));
  const dataPerHour = slope(settled.map(({ minute, heapMB, codeMB }) => ({ x: minute / 60, y: heapMB - codeMB })));
  const first = settled[0];
  const last = samples.at(-1);
  const recovered = tally.backAfterDropMs.length;
  return [
    {
      case: `heap growth after minute ${Number(settleMinutes(minutes).toFixed(1))}`,
      subject: `${perHour.toFixed(2)} MB/hour`,
      baseline: '-',
      target: `<= ${GROWTH_TARGET_MB_PER_HOUR} MB/hour`,
      verdict: atMost(perHour, GROWTH_TARGET_MB_PER_HOUR),
      note: `least-squares slope of the heap after GC every ${SAMPLE_EVERY_MS / 1000} s: ${first?.heapMB.toFixed(2) ?? '-'} MB at minute ${first?.minute.toFixed(1) ?? '-'}, ${last?.heapMB.toFixed(2) ?? '-'} MB at minute ${last?.minute.toFixed(1) ?? '-'}; without compiled code (V8's code space) ${dataPerHour.toFixed(2)} MB/hour`,
    },
    {
      case: 'cues answered',
      subject: `${tally.cuesAnswered.toLocaleString('en-US')} of ${tally.cuesSent.toLocaleString('en-US')}`,
      baseline: '-',
      target: 'every cue',
      verdict: tally.cuesAnswered === tally.cuesSent ? 'met' : 'missed',
      ...(tally.cueFailures.length > 0 ? { note: `first failures: ${tally.cueFailures.slice(0, 3).join('; ')}` } : {}),
    },
    {
      case: 'live values after each dropped socket',
      subject: `${recovered} of ${tally.drops} drops`,
      baseline: '-',
      target: 'reported',
      verdict: 'reported',
      note: `every value back a median ${millis(median(tally.backAfterDropMs))} after the drop (max ${millis(Math.max(...tally.backAfterDropMs, 0))}); told offline ${tally.offline} times; ${(tally.values / (minutes * 60)).toFixed(0)} values/s over the run${tally.liveErrors.length > 0 ? `; live errors: ${tally.liveErrors.slice(0, 3).join('; ')}` : ''}`,
    },
  ];
}
