/**
 * The show log's records (format version 1, `docs/show-log.md`): one JSON object per line, each with `t` (when, as
 * local time with its UTC offset, so `grep T21:03` finds the minute a venue talks about) and `kind`. A value
 * record clears its subject's stale mark; a `stale` record starts one, so spans are read, not written.
 */

/** The format's version, in every file's `log` record. A reader refuses a file written in a newer one. */
export const SHOW_LOG_VERSION = 1;

/** What a `stale` record names: one machine's value, one transport's, or the session's health. */
export type StaleSubject = 'fps' | 'health' | 'takeover' | 'transport' | 'clock';

/** The first record of a file and of every run that appends to it: who writes, for which session. */
export interface LogStartRecord {
  kind: 'log';
  v: number;
  /** The program and its version, `stagelink-bridge 0.3.0`. */
  source: string;
  /** The session as the writer names it (the bridge's MQTT prefix). */
  session?: string;
  /** The show day the file holds, `YYYY-MM-DD`. */
  day: string;
}

/** A machine's FPS as published: at most 4 a second. */
export interface FpsRecord {
  kind: 'fps';
  machine: string;
  value: number;
  /** The rolling average the alert is worked out on. */
  average?: number;
}

/** A machine's health severity (or the session's, without `machine`) and the states behind it, on change. */
export interface HealthRecord {
  kind: 'health';
  machine?: string;
  severity: string;
  states?: { name: string; severity: string; detail?: string }[];
}

/** A failover takeover flag, on change. */
export interface TakeoverRecord {
  kind: 'takeover';
  machine: string;
  value: boolean;
}

/**
 * A machine's hardware as its management controller reports it, on a change of its severity, status or reasons
 * (not of every reading): `offline` while the SMC does not answer.
 */
export interface HardwareRecord {
  kind: 'hardware';
  machine: string;
  status: 'online' | 'stale' | 'offline';
  severity: 'ok' | 'warning' | 'error';
  /** Why, in words (`Fan 2 has stopped (0 RPM)`); absent when ok. */
  reasons?: string[];
}

/** The director, when it changes (a takeover, a move), or null while the session has none. */
export interface DirectorRecord {
  kind: 'director';
  machine: string | null;
  previous?: string | null;
}

/** The live-update stream to the director: while it is not `online`, no live value is seen. */
export interface LinkRecord {
  kind: 'link';
  status: 'connecting' | 'online' | 'offline';
}

/** A value that can no longer be seen: from here until its subject's next value record. */
export interface StaleRecord {
  kind: 'stale';
  subject: StaleSubject;
  machine?: string;
  transport?: string;
  reason: string;
}

/** A transport's polled state, on change. */
export interface TransportRecord {
  kind: 'transport';
  transport: string;
  playmode: string;
  playing: boolean;
  track?: string | null;
}

/** A transport's show clock: on a change of status, track, section or play state, and once a second between. */
export interface ClockRecord {
  kind: 'clock';
  transport: string;
  status: string;
  playing: boolean;
  track?: string;
  /** Seconds into the track. */
  time: number;
  section?: number;
}

/** A command taken (from MQTT, OSC, a flow) and what became of it. */
export interface CommandRecord {
  kind: 'command';
  /** The command: `transport/play`, `failover/takeover`. */
  command: string;
  via?: string;
  transport?: string;
  machine?: string;
  id?: string | null;
  ok: boolean;
  error?: string;
  code?: string;
  /** A late answer's outcome: `landed` or `unknown`. */
  outcome?: string;
  /** From taking the command to its answer. */
  ms?: number;
}

/** What a writer hands the recorder: a record without its time, which the recorder stamps. */
export type ShowLogEntry =
  | FpsRecord
  | HealthRecord
  | TakeoverRecord
  | HardwareRecord
  | DirectorRecord
  | LinkRecord
  | StaleRecord
  | TransportRecord
  | ClockRecord
  | CommandRecord;

/** A record as written and read: an entry (or a file's `log` record) with its time. */
export type ShowLogRecord = (ShowLogEntry | LogStartRecord) & { t: string };
