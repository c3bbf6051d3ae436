import type { StaleSubject } from '@stagelink/core';

/**
 * What a show report shows, worked out from a show log (`docs/show-log.md`) and embedded in the page as JSON
 * (`<script type="application/json" id="stagelink-report-data">`), so a script can check it as a person reads the
 * page. Instants are milliseconds since the epoch; `offsetMinutes` is the offset the log wrote its times with, the
 * one every time on the page is shown at.
 */
export const REPORT_MODEL_VERSION = 1;

/** From `start` to `end`; `end` null when it was still going at the end of the log (or of the window asked for). */
export interface Span {
  start: number;
  end: number | null;
}

/** A machine's (or the session's) health severity from one change to the next, with the states behind it. */
export interface HealthSpan extends Span {
  severity: string;
  /** The states behind it (those worse than ok), `name (severity): detail`, joined. */
  states: string;
}

/**
 * A machine's hardware from one change of its severity (or reasons) to the next, as its management controller
 * reported it: `offline` while the controller did not answer.
 */
export interface HardwareSpan extends Span {
  severity: 'ok' | 'warning' | 'error' | 'offline';
  /** Why, in words, joined; empty when ok. */
  reasons: string;
}

/** A value that could not be seen: from its `stale` record to its subject's next value record. */
export interface StaleSpan extends Span {
  subject: StaleSubject;
  reason: string;
}

/**
 * A machine's FPS over the window, drawn as steps (a value holds until the next: the bridge writes only changes).
 * A long show is cut into buckets, each with the lowest value held in it and the time-weighted average, so a short
 * drop stays visible at any zoom. `null` where the value could not be seen (stale, link offline, no bridge running).
 */
export interface FpsSeries {
  /** Each point's instant (a bucket's start, or a value's own time when the values are few enough to keep). */
  t: number[];
  avg: (number | null)[];
  min: (number | null)[];
  /** 0 when every value is kept as written. */
  bucketMs: number;
  /** FPS records in the window. */
  values: number;
  /** The lowest value written in the window. */
  lowest: number | null;
}

export interface MachineReport {
  name: string;
  fps: FpsSeries;
  health: HealthSpan[];
  /** Its hardware, for a machine the bridge read the management controller of (a band under its health). */
  hardware: HardwareSpan[];
  /** This machine's stale values (FPS, health, takeover). */
  stale: StaleSpan[];
}

/** Something drawn as a line across every chart: the director moving, a command, the recorder (re)starting. */
export interface Marker {
  at: number;
  kind: 'director' | 'command' | 'recording';
  label: string;
  /** A command's result: false for a failure or a late answer. */
  ok?: boolean;
}

export type IncidentState = 'warning' | 'error' | 'health offline' | 'stale' | 'offline';

/** A row of the incidents table: one health warning or worse, stale span or offline span. */
export interface Incident {
  /** A machine's name, `session`, or `transport <name>` for a transport's stale value; `all` for the live link. */
  machine: string;
  state: IncidentState;
  start: number;
  end: number | null;
  /** To its end, or to the end of the window when it was still going. */
  durationMs: number;
  detail: string;
}

export type CommandOutcome = 'ok' | 'failed' | 'landed late' | 'outcome unknown';

/** A row of the commands table. */
export interface CommandRow {
  at: number;
  command: string;
  /** The transport or machine it was for. */
  target: string;
  via: string | null;
  id: string | null;
  outcome: CommandOutcome;
  error: string | null;
  code: string | null;
  ms: number | null;
}

export interface ReportModel {
  v: typeof REPORT_MODEL_VERSION;
  /** The writers and sessions named by the log's `log` records, and its show days. */
  sources: string[];
  sessions: string[];
  days: string[];
  /** The offset (minutes east of UTC) of the log's first record: every time on the page is shown at it. */
  offsetMinutes: number;
  /** The window the report covers: as asked, or the log's first and last record. */
  from: number;
  to: number;
  /** Records read (in the window and before it, for the state it starts in) and lines skipped as unreadable. */
  records: number;
  skipped: number;
  machines: MachineReport[];
  /** Health of the session as a whole (a `health` record without a machine). */
  sessionHealth: HealthSpan[];
  /** While the live-update link was not online, no machine's live values could be seen. */
  offline: (Span & { status: string })[];
  /** Stale spans of transports' values (playmode, clock). */
  transportStale: (StaleSpan & { transport: string })[];
  /** Stale spans of the session's own health (a `stale` record naming neither a machine nor a transport). */
  sessionStale: StaleSpan[];
  markers: Marker[];
  incidents: Incident[];
  commands: CommandRow[];
}
