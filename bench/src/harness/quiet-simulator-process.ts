import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { cpuProfileArgs } from './profiling.js';
import { stopProcess } from './stop-process.js';

/** A demo simulator in a process of its own that writes nothing after its address: see startQuietSimulatorProcess. */
export interface QuietSimulatorProcess {
  mediaServerUrl: string;
  /** SIGTERM; resolves when the process has exited. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 15_000;

/**
 * Starts the demo simulator (seed 1, 127.0.0.1, free ports) in its own process, without the request log the
 * command line prints. Measuring this process's own CPU per request needs both: the server's work out of the
 * process, and no log line per request for this process to read.
 */
export async function startQuietSimulatorProcess(): Promise<QuietSimulatorProcess> {
  const simulator = import.meta.resolve('@stagelink/simulator');
  const source = [
    `const { startSimulator } = await import(${JSON.stringify(simulator)});`,
    `const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });`,
    `process.stdout.write(JSON.stringify({ mediaServer: sim.mediaServer.url }) + '\\n');`,
    `process.once('SIGTERM', () => void sim.close().then(() => process.exit(0)));`,
  ].join('\n');
  const child = spawn(process.execPath, [...cpuProfileArgs(), '--input-type=module', '--eval', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const lines = createInterface({ input: child.stdout });
    const signal = AbortSignal.timeout(READY_TIMEOUT_MS);
    const exited = once(child, 'exit', { signal }).then(([code]) => {
      throw new Error(`The simulator exited with code ${String(code)} before it was ready.`);
    });
    const first = once(lines, 'line', { signal }).then(([line]) => JSON.parse(String(line)) as { mediaServer: string });
    const ready = await Promise.race([first, exited]);
    exited.catch(() => undefined);
    lines.close();
    return { mediaServerUrl: ready.mediaServer, stop: () => stopProcess(child) };
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}
