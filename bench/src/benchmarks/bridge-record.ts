import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { startMosquitto, MOSQUITTO_MISSING } from '@stagelink/bridge/testing';
import { startSimulator } from '@stagelink/simulator';
import { compareRounds } from '../harness/compare.js';
import { cpuMsOf, startBridgeProcess } from '../harness/bridge-process.js';
import { notRun, type Benchmark } from '../harness/report.js';
import { stopProcess } from '../harness/stop-process.js';

const MACHINES = 20;
const ROUNDS = 6;
const ROUND_MS = 10_000;
const WARM_UP_MS = 5000;

/**
 * What `--record` costs: two bridges on the same session and broker at the same time, one recording the show log
 * and one not, their CPU measured over the same rounds, so the machine's load weighs on both alike. The log's
 * growth over the rounds gives its bytes per machine-hour.
 */
export const bridgeRecord: Benchmark = {
  id: 'bridge-record',
  name: 'bridge show log',
  subject: `a bridge recording the show log (--record), ${MACHINES} machines, FPS at 4 Hz`,
  baseline: 'the same bridge without --record, on the same session at the same time',
  async run(log) {
    if (MOSQUITTO_MISSING) return { rows: [notRun('all', 'reported', MOSQUITTO_MISSING)], details: {} };
    const sim = await startSimulator({ scenario: 'venue', machines: MACHINES, host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
    const broker = await startMosquitto();
    const dir = await mkdtemp(join(tmpdir(), 'stagelink-bench-record-'));
    const common = ['--server', sim.mediaServer.url, '--mqtt', broker.url, '--log-format', 'json'];
    const recording = startBridgeProcess([...common, '--prefix', 'bench/recording', '--record', dir]);
    const plain = startBridgeProcess([...common, '--prefix', 'bench/plain']);
    try {
      log(`${WARM_UP_MS / 1000} s warm-up, then ${ROUNDS} rounds of ${ROUND_MS / 1000} s`);
      await delay(WARM_UP_MS);
      const withLog: number[] = [];
      const without: number[] = [];
      const startBytes = await logBytes(dir);
      const startedAt = performance.now();
      for (let round = 0; round < ROUNDS; round++) {
        const before = { recording: cpuMsOf(recording), plain: cpuMsOf(plain), at: performance.now() };
        await delay(ROUND_MS);
        const seconds = (performance.now() - before.at) / 1000;
        withLog.push((cpuMsOf(recording) - before.recording) / seconds);
        without.push((cpuMsOf(plain) - before.plain) / seconds);
        log(`round ${round + 1}: ${Math.round(withLog.at(-1) ?? 0)} against ${Math.round(without.at(-1) ?? 0)} ms/s`);
      }
      const hours = (performance.now() - startedAt) / 3_600_000;
      const bytesPerMachineHour = ((await logBytes(dir)) - startBytes) / MACHINES / hours;
      const cpu = compareRounds(withLog, without);
      return {
        rows: [
          {
            case: 'bridge CPU with --record',
            subject: `${Math.round(cpu.subject)} ms/s`,
            baseline: `${Math.round(cpu.baseline)} ms/s`,
            ratioLabel: 'recording / not',
            ratio: cpu.ratio,
            ratioRange: cpu.ratioRange,
            target: 'reported',
            verdict: 'reported',
          },
          {
            case: 'show log bytes per machine-hour',
            subject: `${(bytesPerMachineHour / 1e6).toFixed(2)} MB`,
            baseline: '-',
            target: 'reported',
            verdict: 'reported',
            note: `the simulator's FPS moves more than a steady show's, which the bridge's deadband thins; 8 h of ${MACHINES} machines: ${((bytesPerMachineHour * MACHINES * 8) / 1e6).toFixed(0)} MB`,
          },
        ],
        details: { machines: MACHINES, rounds: ROUNDS, roundMs: ROUND_MS, recordingCpuMsPerSecond: withLog, plainCpuMsPerSecond: without, bytesPerMachineHour },
      };
    } finally {
      await Promise.all([stopProcess(recording), stopProcess(plain)]);
      await broker.close();
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
};

async function logBytes(dir: string): Promise<number> {
  const files = await readdir(dir);
  const sizes = await Promise.all(files.map(async (name) => (await stat(join(dir, name))).size));
  return sizes.reduce((sum, size) => sum + size, 0);
}
