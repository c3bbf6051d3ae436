import { endpointList } from '@stagelink/core';
import type { LogEntry } from '@stagelink/simulator';
import { PATH_TRICKS } from '../gen/values.js';

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

/**
 * The segments that come right before an id: the catalogue's `{param}`s and core's drive paths
 * (`/v1/drives/{driveId}/content/{contentId}/versions/{versionId}`).
 */
const BEFORE_ID: ReadonlySet<string> = new Set([
  ...endpointList.flatMap((spec) => [...spec.path.matchAll(/([^/]+)\/\{\w+\}/g)].map((match) => match[1] ?? '')),
  'drives',
  'content',
  'versions',
]);

/**
 * What arrives of a generated id holding a `/`, `?` or `#` when it was not encoded: the part before that
 * character (the rest went to further segments, the query, or the fragment, which is never sent). A part
 * that is itself an id sent (`..` of `../`) proves nothing.
 */
const CUT_IDS: ReadonlySet<string> = new Set(
  PATH_TRICKS.filter((id) => /[/?#]/.test(id))
    .map((id) => id.split(/[/?#]/)[0] ?? '')
    .filter((cut) => !PATH_TRICKS.includes(cut)),
);

export class RequestWatch {
  readonly #arrived: string[] = [];
  readonly escapes: string[] = [];

  /** A simulator log sink. */
  readonly sink = (entry: LogEntry): void => {
    if (entry.event !== 'request' || typeof entry.path !== 'string') return;
    const path = entry.path.split('?')[0] ?? '';
    if (GUARDED_PATHS.has(path)) this.#arrived.push(`${String(entry.method)} ${path}`);
    if ((DOT_SEGMENT.test(path) || holdsCutId(path)) && this.escapes.length < 20) this.escapes.push(`${String(entry.method)} ${entry.path.slice(0, 120)}`);
  };

  get count(): number {
    return this.#arrived.length;
  }

  since(count: number): string[] {
    return this.#arrived.slice(count);
  }
}

/** True when a segment where an id belongs, decoded, is a generated id cut at a `/`, `?` or `#`. */
function holdsCutId(path: string): boolean {
  const segments = path.split('/').map(decodedSegment);
  return segments.some((segment, index) => index > 0 && BEFORE_ID.has(segments[index - 1] ?? '') && CUT_IDS.has(segment));
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
