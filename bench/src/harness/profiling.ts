/**
 * `STAGELINK_BENCH_CPU_PROF=<dir> pnpm bench <id>` profiles the processes a benchmark starts (Node-RED, the
 * simulator), one .cpuprofile each in <dir>; profile the benchmark process itself with
 * `node --cpu-prof --import tsx src/run.ts <id>` in bench/. RESULTS.md reads them.
 */
export function cpuProfileArgs(): string[] {
  const dir = process.env['STAGELINK_BENCH_CPU_PROF'];
  return dir ? ['--cpu-prof', '--cpu-prof-dir', dir] : [];
}
