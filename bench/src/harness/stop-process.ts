import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** SIGTERM, as a service manager stops a process; resolves once it has exited (at once if it already has). */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
