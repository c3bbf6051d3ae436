import { readFileSync } from 'node:fs';

/** Timing loops shared by the benchmarks. All times are milliseconds from performance.now(). */

export type Call = () => Promise<unknown>;

/** The latency of each of `count` calls made one after another. */
export async function sequentialLatencies(call: Call, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await call();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

export interface ConcurrentRun {
  latencies: number[];
  elapsedMs: number;
}

/** `count` calls made by `callers` callers at once, each starting its next call when the last one answered. */
export async function concurrentLatencies(call: Call, count: number, callers: number): Promise<ConcurrentRun> {
  const latencies: number[] = [];
  let started = 0;
  const caller = async (): Promise<void> => {
    while (started < count) {
      started++;
      const callStarted = performance.now();
      await call();
      latencies.push(performance.now() - callStarted);
    }
  };
  const runStarted = performance.now();
  await Promise.all(Array.from({ length: callers }, caller));
  return { latencies, elapsedMs: performance.now() - runStarted };
}

/**
 * Runs every contender once per round, the order rotating from round to round, so that drift and load from
 * other work on the machine hit them alike. Answers each contender's results, one per round.
 */
export async function interleavedRounds<T, K extends string>(rounds: number, contenders: Record<K, () => Promise<T>>): Promise<Record<K, T[]>> {
  const names = Object.keys(contenders) as K[];
  const results = Object.fromEntries(names.map((name) => [name, [] as T[]])) as Record<K, T[]>;
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < names.length; turn++) {
      const name = names[(round + turn) % names.length] as K;
      results[name].push(await contenders[name]());
    }
  }
  return results;
}

/** CPU time (user + system) this process spent while `work` ran, and the wall time it took. */
export async function cpuDuring<T>(work: () => Promise<T>): Promise<{ result: T; cpuMs: number; wallMs: number }> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const { user, system } = process.cpuUsage(cpuBefore);
  return { result, cpuMs: (user + system) / 1000, wallMs: performance.now() - started };
}

/** This process's CPU time (user + system) per call, over `count` calls made one after another. */
export async function cpuPerCall(call: Call, count: number): Promise<number> {
  const { cpuMs } = await cpuDuring(async () => {
    for (let index = 0; index < count; index++) await call();
  });
  return cpuMs / count;
}

/** USER_HZ, 100 on every Linux architecture the project runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system) another process has used so far, from /proc (Linux), in milliseconds. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND) * 1000;
}
