import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cpuProfileArgs } from './profiling.js';
import { stopProcess } from './stop-process.js';

/** A simulator running as its own process through its command line, as a show machine or the drive would be a separate host. */
export interface SimulatorProcess {
  mediaServerUrl: string;
  port: number;
  /** The drive service and its demo token. */
  drive: { url: string; token: string };
  /** The session's machines, where the scenario lists them (`session`, `venue`). */
  machines: { hostname: string; role: string }[];
  /** SIGTERM, as a restart would; resolves when the process has exited and its sockets are closed. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 15_000;
const CLI = join(dirname(fileURLToPath(import.meta.resolve('@stagelink/simulator'))), 'cli.mjs');

/**
 * Starts `stagelink-sim` on 127.0.0.1 (port 0 picks one), with any further flags (`--scenario venue`), and
 * resolves once it printed its ready line.
 */
export async function startSimulatorProcess(port = 0, flags: readonly string[] = []): Promise<SimulatorProcess> {
  const args = [...cpuProfileArgs(), CLI, '--host', '127.0.0.1', '--port', String(port), '--drive-port', '0', '--seed', '1', ...flags];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const ready = await readyLine(child);
    const port = Number(new URL(ready.mediaServer).port);
    return { mediaServerUrl: ready.mediaServer, port, drive: { url: ready.drive, token: ready.driveToken }, machines: ready.machines ?? [], stop: () => stopProcess(child) };
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}

/** The first stdout line; the request log lines after it are read and dropped, so the pipe never fills. */
interface ReadyLine {
  event?: string;
  mediaServer: string;
  drive: string;
  driveToken: string;
  machines?: { hostname: string; role: string }[];
}

async function readyLine(child: ChildProcess): Promise<ReadyLine> {
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const timeout = AbortSignal.timeout(READY_TIMEOUT_MS);
  const exited = once(child, 'exit', { signal: timeout }).then(([code]) => {
    throw new Error(`The simulator exited with code ${String(code)} before it was ready.`);
  });
  const first = once(lines, 'line', { signal: timeout }).then(([line]) => JSON.parse(String(line)) as ReadyLine);
  const ready = await Promise.race([first, exited]);
  exited.catch(() => undefined);
  if (ready.event !== 'ready') throw new Error(`The simulator printed ${JSON.stringify(ready)} instead of its ready line.`);
  return ready;
}
