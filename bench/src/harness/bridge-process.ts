import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { processUsage } from './process-usage.js';

const BRIDGE_CLI = fileURLToPath(new URL('cli.mjs', import.meta.resolve('@stagelink/bridge')));

/** The bridge's CLI as an operator runs it, in a process of its own whose CPU can be read. */
export function startBridgeProcess(args: string[]): ChildProcess {
  const bridge = fork(BRIDGE_CLI, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  bridge.stderr?.resume();
  return bridge;
}

/** CPU time the process has used so far, user and system. */
export function cpuMsOf(child: ChildProcess): number {
  if (child.pid === undefined) throw new Error('a bridge process did not start');
  return processUsage(child.pid).cpuMs;
}
