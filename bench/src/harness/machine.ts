import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg, totalmem } from 'node:os';

/** The machine a run was made on: ratios only compare within one run, but absolute numbers need this. */
export interface MachineInfo {
  date: string;
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  /** 1, 5 and 15 minute load averages at the start: other work on a shared machine shows here. */
  loadAverage: number[];
}

export function machineInfo(): MachineInfo {
  return {
    date: new Date().toISOString(),
    cpus: availableParallelism(),
    cpuModel: cpuModel(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: loadavg().map((load) => Number(load.toFixed(2))),
  };
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    return match?.[1]?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
