import { readFileSync } from 'node:fs';

/** CPU time (user + system) and resident memory of another process, read from /proc (Linux). */
export interface ProcessUsage {
  cpuMs: number;
  rssMiB: number;
}

/** Linux reports CPU times in clock ticks of 1/100 s on every common configuration. */
const TICK_MS = 10;

export function processUsage(pid: number): ProcessUsage {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  const rss = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuMs: (utime + stime) * TICK_MS, rssMiB: rss?.[1] ? Number(rss[1]) / 1024 : Number.NaN };
}
