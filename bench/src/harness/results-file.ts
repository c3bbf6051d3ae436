import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MachineInfo } from './machine.js';
import type { BenchmarkResult } from './report.js';

const RESULTS_FILE = fileURLToPath(new URL('../../results/latest.json', import.meta.url));

/** Writes the run's machine, rows and raw numbers as JSON, replacing the previous run's file; answers its path. */
export async function writeResults(machine: MachineInfo, results: readonly BenchmarkResult[]): Promise<string> {
  await mkdir(dirname(RESULTS_FILE), { recursive: true });
  await writeFile(RESULTS_FILE, `${JSON.stringify({ machine, results }, null, 2)}\n`);
  return RESULTS_FILE;
}
