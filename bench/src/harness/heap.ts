import { getHeapSpaceStatistics, setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * The heap after a full collection, in MB (10^6 bytes). Node exposes `gc` only with --expose-gc; setting the
 * flag at run time and reading `gc` from a fresh context gives it without changing how `pnpm bench` starts node.
 */
export function heapAfterGcMB(): number {
  collectGarbage();
  // A second pass collects what the first only made unreachable (weak references, finalisers).
  collectGarbage();
  return process.memoryUsage().heapUsed / 1e6;
}

/**
 * The part of the heap that is compiled code (V8's code space), in MB: it grows while the JIT still optimises
 * paths that run rarely (a reconnect once a minute), which is not data the program keeps.
 */
export function codeSpaceMB(): number {
  return (getHeapSpaceStatistics().find((space) => space.space_name === 'code_space')?.space_used_size ?? 0) / 1e6;
}

let gc: (() => void) | undefined;

function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/** Writes a heap snapshot (after a collection) into `directory`, named by `label`; answers its path. */
export function heapSnapshot(directory: string, label: string): string {
  collectGarbage();
  return writeHeapSnapshot(`${directory}/soak-${label}.heapsnapshot`);
}

/** The least-squares slope of (x, y) points; NaN with fewer than two. */
export function slope(points: readonly { x: number; y: number }[]): number {
  if (points.length < 2) return Number.NaN;
  const meanX = points.reduce((sum, point) => sum + point.x, 0) / points.length;
  const meanY = points.reduce((sum, point) => sum + point.y, 0) / points.length;
  const covariance = points.reduce((sum, point) => sum + (point.x - meanX) * (point.y - meanY), 0);
  const variance = points.reduce((sum, point) => sum + (point.x - meanX) ** 2, 0);
  return variance === 0 ? Number.NaN : covariance / variance;
}
