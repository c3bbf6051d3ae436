import { endpointList } from '@stagelink/core';
import type { LogEntry } from '@stagelink/simulator';

/**
 * Requests that must never reach a machine unconfirmed: the catalogue's guarded endpoints (power, SMC) and
 * the failover operations the failover node guards. Counted from the simulator's request log, i.e. from
 * what actually arrived.
 */
export const GUARDED_PATHS: ReadonlySet<string> = new Set([
  ...endpointList.filter((spec) => spec.guarded).map((spec) => spec.path),
  '/api/session/failover/failovermachine',
  '/api/session/failover/restoremachine',
]);

/** A raw path with a dot segment: an id that escaped its path segment (ids are encoded whole, `.` included). */
const DOT_SEGMENT = /(^|\/)\.{1,2}(\/|$)/;

export class RequestWatch {
  readonly #arrived: string[] = [];
  readonly escapes: string[] = [];

  /** A simulator log sink. */
  readonly sink = (entry: LogEntry): void => {
    if (entry.event !== 'request' || typeof entry.path !== 'string') return;
    const path = entry.path.split('?')[0] ?? '';
    if (GUARDED_PATHS.has(path)) this.#arrived.push(`${String(entry.method)} ${path}`);
    if (DOT_SEGMENT.test(path) && this.escapes.length < 20) this.escapes.push(`${String(entry.method)} ${entry.path.slice(0, 120)}`);
  };

  get count(): number {
    return this.#arrived.length;
  }

  since(count: number): string[] {
    return this.#arrived.slice(count);
  }
}
