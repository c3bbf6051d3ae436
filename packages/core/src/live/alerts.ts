import type { HealthEntry, Severity } from '../media-server/types.js';

export type FpsAlert = 'ok' | 'warning' | 'error';

/** Field guidance: 5 to 9 frames below target is a warning, 10 or more an error. */
export function classifyFps(fps: number, target: number): FpsAlert {
  const shortfall = target - fps;
  if (shortfall >= 10) return 'error';
  if (shortfall >= 5) return 'warning';
  return 'ok';
}

/** Worst first is the last. `ready` and `ok` are the same level; servers use either. */
const SEVERITY_RANK: Record<string, number> = { ok: 0, ready: 0, busy: 1, warning: 2, error: 3, offline: 4 };

/** A severity no server documented is taken as a warning: worth a look, not an alarm. */
const UNKNOWN_RANK = SEVERITY_RANK.warning ?? 2;

export function severityRank(severity: string): number {
  return SEVERITY_RANK[severity.toLowerCase()] ?? UNKNOWN_RANK;
}

/** The worst of a list of severities, `ok` for an empty list; `ready` is reported as `ok`. */
export function worstSeverity(severities: Iterable<string>): Severity {
  let worst: Severity = 'ok';
  for (const severity of severities) {
    const normalised = normaliseSeverity(severity);
    if (severityRank(normalised) > severityRank(worst)) worst = normalised;
  }
  return worst;
}

/**
 * The health entries of one machine: its own, or the understudy's running as it. Hostnames match in any case:
 * shipping directors write `ACTOR01`, people and DNS any case.
 */
export function healthOf(entries: readonly HealthEntry[], hostname: string): HealthEntry[] {
  const wanted = hostname.toLowerCase();
  const named = (machine: { hostname: unknown }) => typeof machine.hostname === 'string' && machine.hostname.toLowerCase() === wanted;
  return entries.filter((entry) => named(entry.machine) || named(entry.runningAsMachine));
}

/** The worst state of the session, or of one machine when `hostname` is given (see healthOf). */
export function worstHealth(entries: readonly HealthEntry[], hostname?: string): Severity {
  const relevant = hostname ? healthOf(entries, hostname) : entries;
  if (hostname && relevant.length === 0) return 'offline';
  return worstSeverity(relevant.flatMap((entry) => entry.status.states.map((state) => state.severity)));
}

function normaliseSeverity(severity: string): Severity {
  const lower = severity.toLowerCase();
  if (lower === 'ready') return 'ok';
  return lower in SEVERITY_RANK ? (lower as Severity) : 'warning';
}
