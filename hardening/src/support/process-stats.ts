import { readdirSync, readFileSync } from 'node:fs';

/** What the kernel says about a process, read from outside it: resident memory and open file descriptors. */
export interface ProcessSample {
  rssKb: number;
  fds: number;
}

export function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function sampleProcess(pid: number): ProcessSample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return { rssKb: Number(rss?.[1] ?? Number.NaN), fds: readdirSync(`/proc/${pid}/fd`).length };
}
