import { severityRank, type CommandRecord, type HardwareRecord, type HealthRecord, type ShowLogRecord, type StaleRecord } from '@stagelink/core';
import { fpsSeries, MAX_POINTS_PER_MACHINE, type FpsStep } from './fps-series.js';
import { REPORT_MODEL_VERSION, type CommandOutcome, type CommandRow, type HardwareSpan, type HealthSpan, type Incident, type Marker, type ReportModel, type Span, type StaleSpan } from './report-model.js';
import { offsetMinutesOf, showDayAt } from './report-times.js';

export interface ReportWindow {
  /** Only what happened from here on is shown; what came before still gives the state the window starts in. */
  from?: Date;
  /** Only what happened before this. */
  to?: Date;
  /** Most FPS points per machine (default 2000). */
  maxPoints?: number;
}

interface MachineState {
  steps: FpsStep[];
  fpsValues: number;
  lowest: number | null;
  health: HealthSpan[];
  hardware: HardwareSpan[];
  stale: StaleSpan[];
}

/** The key of a stale subject: `fps node-a`, `clock main`. */
const subjectKey = (subject: string, name: string | undefined) => `${subject} ${name ?? ''}`;

/**
 * Reads a show log's records, in the order written, into a report (`ReportModel`). Spans are read as the log
 * format says: a `stale` record starts a stale span of its subject, ended by that subject's next value record; a
 * `link` record that is not `online` starts an offline span of every live value, ended by the next `online`; a
 * health span lasts from a change of severity to the next. Records before the window set the state it starts in,
 * and only that state is kept of them: a span that ended before the window is dropped as it ends, and of a machine's
 * FPS before the window only the value held, so reading weeks of show days before the window holds no more.
 */
export class ReportBuilder {
  readonly #from: number | undefined;
  readonly #to: number | undefined;
  readonly #maxPoints: number;
  readonly #machines = new Map<string, MachineState>();
  /** Each open stale span, with the list it is in (to drop it when it ends before the window). */
  readonly #openStale = new Map<string, { span: StaleSpan; list: StaleSpan[] }>();
  readonly #sessionHealth: HealthSpan[] = [];
  readonly #offline: (Span & { status: string; startUp?: true })[] = [];
  /** Whether the link of the run being read has been online yet: before that, `connecting` is the run starting. */
  #runOnline = false;
  readonly #transportStale: (StaleSpan & { transport: string })[] = [];
  readonly #sessionStale: StaleSpan[] = [];
  readonly #markers: Marker[] = [];
  readonly #commands: CommandRow[] = [];
  readonly #sources = new Set<string>();
  readonly #sessions = new Set<string>();
  readonly #days = new Set<string>();
  /** The last run before the window: the window starts in its show day. */
  #runBeforeWindow: { t: string; source: string; session?: string; day: string } | undefined;
  #offsetMinutes: number | undefined;
  #first: number | undefined;
  #last: number | undefined;
  #records = 0;
  #logRecords = 0;
  /** Lines of the log that were not records (a torn last line), as the reader counted them. */
  skipped = 0;
  /** Records in the window itself. */
  inWindow = 0;

  constructor(window: ReportWindow = {}) {
    this.#from = window.from?.getTime();
    this.#to = window.to?.getTime();
    this.#maxPoints = window.maxPoints ?? MAX_POINTS_PER_MACHINE;
  }

  /** True once a record at or after the window's end was given: the rest of the log can be left unread. */
  pastWindow = false;

  add(record: ShowLogRecord): void {
    const at = Date.parse(record.t);
    this.#offsetMinutes ??= offsetMinutesOf(record.t);
    if (this.#to !== undefined && at >= this.#to) {
      this.pastWindow = true;
      return;
    }
    this.#records++;
    this.#first ??= at;
    this.#last = Math.max(this.#last ?? at, at);
    const inWindow = this.#from === undefined || at >= this.#from;
    if (inWindow) this.inWindow++;
    switch (record.kind) {
      case 'log':
        if (inWindow) this.#run(record);
        else this.#runBeforeWindow = { t: record.t, source: record.source, day: record.day, ...(record.session === undefined ? {} : { session: record.session }) };
        this.#runOnline = false;
        // A run that starts again has seen nothing of the time between: no value is known until written again.
        if (this.#logRecords++ > 0) {
          for (const machine of this.#machines.values()) this.#step(machine, at, null);
          if (inWindow) this.#markers.push({ at, kind: 'recording', label: `recording started again (${record.source})` });
        }
        break;
      case 'fps': {
        const machine = this.#machine(record.machine);
        this.#step(machine, at, record.value);
        if (inWindow) {
          machine.fpsValues++;
          machine.lowest = Math.min(machine.lowest ?? record.value, record.value);
        }
        this.#endStale('fps', record.machine, at);
        break;
      }
      case 'health':
        this.#health(record, at);
        this.#endStale('health', record.machine, at);
        break;
      case 'hardware':
        this.#hardware(record, at);
        break;
      case 'takeover':
        this.#machine(record.machine);
        this.#endStale('takeover', record.machine, at);
        break;
      case 'transport':
      case 'clock':
        this.#endStale(record.kind, record.transport, at);
        break;
      case 'stale':
        this.#stale(record, at);
        break;
      case 'link':
        this.#link(record.status, at);
        break;
      case 'director':
        if (inWindow) {
          const to = record.machine ?? 'none';
          const previous = record.previous === undefined ? '' : ` (was ${record.previous ?? 'none'})`;
          this.#markers.push({ at, kind: 'director', label: `director ${to}${previous}` });
        }
        break;
      case 'command':
        if (inWindow) this.#command(record, at);
        break;
    }
  }

  /** The first and last record's instants, in the window or before it. */
  get firstAt(): number | undefined {
    return this.#first;
  }

  get lastAt(): number | undefined {
    return this.#last;
  }

  /**
   * How many steps, spans, markers and commands are held: those of the window, and of the time before it only what
   * the window starts in (a value held, a span still open).
   */
  get held(): number {
    let held = this.#sessionHealth.length + this.#offline.length + this.#transportStale.length + this.#sessionStale.length + this.#markers.length + this.#commands.length;
    for (const machine of this.#machines.values()) held += machine.steps.length + machine.health.length + machine.hardware.length + machine.stale.length;
    return held;
  }

  /** The report of everything added. */
  finish(): ReportModel {
    const from = this.#from ?? this.#first ?? 0;
    const to = this.#to ?? this.#last ?? from;
    const overlaps = (span: Span) => (span.end === null || span.end > from) && span.start < to;
    const durationOf = (span: Span) => Math.max(0, (span.end ?? to) - span.start);
    const incidents: Incident[] = [];
    const machines = [...this.#machines.entries()]
      .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
      .map(([name, state]) => {
        const health = state.health.filter(overlaps);
        const stale = state.stale.filter(overlaps);
        const hardware = state.hardware.filter(overlaps);
        for (const span of health.filter(isIncident)) incidents.push(healthIncident(name, span, durationOf(span)));
        for (const span of hardware.filter((each) => each.severity !== 'ok')) {
          const detail = span.severity === 'offline' ? `hardware offline: ${span.reasons}` : `hardware: ${span.reasons}`;
          incidents.push({ machine: name, state: span.severity === 'warning' ? 'warning' : 'error', start: span.start, end: span.end, durationMs: durationOf(span), detail });
        }
        for (const span of stale) incidents.push({ machine: name, state: 'stale', start: span.start, end: span.end, durationMs: durationOf(span), detail: `${span.subject}: ${span.reason}` });
        return { name, fps: { ...fpsSeries(state.steps, from, to, this.#maxPoints), values: state.fpsValues, lowest: state.lowest }, health, hardware, stale };
      });
    const sessionHealth = this.#sessionHealth.filter(overlaps);
    for (const span of sessionHealth.filter(isIncident)) incidents.push(healthIncident('session', span, durationOf(span)));
    const offline = this.#offline.filter(overlaps);
    // A run connecting at its start is shaded, not an incident: every start of the bridge would list one.
    for (const span of offline.filter((span) => !span.startUp)) incidents.push({ machine: 'all', state: 'offline', start: span.start, end: span.end, durationMs: durationOf(span), detail: `live link ${span.status}: no live value seen` });
    const transportStale = this.#transportStale.filter(overlaps);
    for (const span of transportStale) {
      incidents.push({ machine: `transport ${span.transport}`, state: 'stale', start: span.start, end: span.end, durationMs: durationOf(span), detail: `${span.subject}: ${span.reason}` });
    }
    const sessionStale = this.#sessionStale.filter(overlaps);
    for (const span of sessionStale) incidents.push({ machine: 'session', state: 'stale', start: span.start, end: span.end, durationMs: durationOf(span), detail: `${span.subject}: ${span.reason}` });
    incidents.sort((a, b) => a.start - b.start || a.machine.localeCompare(b.machine));
    return {
      v: REPORT_MODEL_VERSION,
      ...this.#runs(from),
      offsetMinutes: this.#offsetMinutes ?? 0,
      from,
      to,
      records: this.#records,
      skipped: this.skipped,
      machines,
      sessionHealth,
      offline,
      transportStale,
      sessionStale,
      markers: this.#markers,
      incidents,
      // A command is written when its answer comes, stamped with when it was taken: a late one follows later ones.
      commands: this.#commands.toSorted((a, b) => a.at - b.at),
    };
  }

  /** Before the window only the value held matters: the steps before it are dropped as a later one comes. */
  #step(machine: MachineState, at: number, value: number | null): void {
    if (this.#from !== undefined && at <= this.#from) machine.steps.length = 0;
    machine.steps.push({ at, value });
  }

  /** A run of the recorder the window shows: who wrote it, for which session and show day. */
  #run(run: { source: string; session?: string; day: string }): void {
    this.#sources.add(run.source);
    if (run.session !== undefined) this.#sessions.add(run.session);
    this.#days.add(run.day);
  }

  /**
   * Who wrote the window, for which sessions and show days: the runs started in it, and the one it starts in (its
   * show day only when the window starts on that day: a run of last night does not make today's window two days).
   */
  #runs(from: number): Pick<ReportModel, 'sources' | 'sessions' | 'days'> {
    const before = this.#runBeforeWindow;
    const sources = new Set(before ? [before.source] : []);
    const sessions = new Set(before?.session === undefined ? [] : [before.session]);
    const days = new Set<string>();
    if (before && before.day >= showDayAt(from, offsetMinutesOf(before.t))) days.add(before.day);
    for (const source of this.#sources) sources.add(source);
    for (const session of this.#sessions) sessions.add(session);
    for (const day of this.#days) days.add(day);
    return { sources: [...sources], sessions: [...sessions], days: [...days].sort() };
  }

  /** A span that ended before the window says nothing about it. */
  #endedBeforeWindow(end: number): boolean {
    return this.#from !== undefined && end <= this.#from;
  }

  #machine(name: string): MachineState {
    let machine = this.#machines.get(name);
    if (!machine) {
      machine = { steps: [], fpsValues: 0, lowest: null, health: [], hardware: [], stale: [] };
      this.#machines.set(name, machine);
    }
    return machine;
  }

  #health(record: HealthRecord, at: number): void {
    const spans = record.machine === undefined ? this.#sessionHealth : this.#machine(record.machine).health;
    const open = spans.at(-1);
    if (open?.end === null && open.severity === record.severity) return;
    if (open?.end === null) {
      open.end = at;
      if (this.#endedBeforeWindow(at)) spans.pop();
    }
    // The states behind the severity: those at ok or ready say nothing about it.
    const states = (record.states ?? []).filter((state) => severityRank(state.severity) > 0).map(({ name, severity, detail }) => `${name} (${severity})${detail ? `: ${detail}` : ''}`).join('; ');
    spans.push({ start: at, end: null, severity: record.severity, states });
  }

  /** A span per change of the hardware's severity or reasons: a fan that stops, then runs again, is one span. */
  #hardware(record: HardwareRecord, at: number): void {
    const spans = this.#machine(record.machine).hardware;
    const severity = record.status === 'offline' ? 'offline' : record.severity;
    const reasons = (record.reasons ?? []).join('; ');
    const open = spans.at(-1);
    if (open?.end === null && open.severity === severity && open.reasons === reasons) return;
    if (open?.end === null) {
      open.end = at;
      if (this.#endedBeforeWindow(at)) spans.pop();
    }
    spans.push({ start: at, end: null, severity, reasons });
  }

  #stale(record: StaleRecord, at: number): void {
    const name = record.machine ?? record.transport;
    const key = subjectKey(record.subject, name);
    if (this.#openStale.has(key)) return;
    const span: StaleSpan = { start: at, end: null, subject: record.subject, reason: record.reason };
    let list: StaleSpan[];
    if (record.machine !== undefined) {
      const machine = this.#machine(record.machine);
      list = machine.stale;
      list.push(span);
      if (record.subject === 'fps') this.#step(machine, at, null);
    } else if (record.transport !== undefined) {
      list = this.#transportStale;
      this.#transportStale.push(Object.assign(span, { transport: record.transport }));
    } else {
      list = this.#sessionStale;
      list.push(span);
    }
    this.#openStale.set(key, { span, list });
  }

  #endStale(subject: string, name: string | undefined, at: number): void {
    const key = subjectKey(subject, name);
    const open = this.#openStale.get(key);
    if (!open) return;
    open.span.end = at;
    this.#openStale.delete(key);
    if (this.#endedBeforeWindow(at)) open.list.splice(open.list.lastIndexOf(open.span), 1);
  }

  #link(status: string, at: number): void {
    const open = this.#offline.at(-1);
    const isOpen = open?.end === null;
    if (status === 'online') {
      this.#runOnline = true;
      if (open && isOpen) {
        open.end = at;
        if (this.#endedBeforeWindow(at)) this.#offline.pop();
      }
      return;
    }
    if (isOpen) return;
    const startUp = status === 'connecting' && !this.#runOnline;
    this.#offline.push({ start: at, end: null, status, ...(startUp ? { startUp: true as const } : {}) });
    for (const machine of this.#machines.values()) this.#step(machine, at, null);
  }

  #command(record: CommandRecord, at: number): void {
    const outcome = outcomeOf(record);
    const target = record.transport ?? record.machine ?? '';
    this.#commands.push({
      at,
      command: record.command,
      target,
      via: record.via ?? null,
      id: record.id ?? null,
      outcome,
      error: record.error ?? null,
      code: record.code ?? null,
      ms: record.ms ?? null,
    });
    this.#markers.push({ at, kind: 'command', label: `${record.command}${target ? ` ${target}` : ''}: ${outcome}`, ok: outcome === 'ok' });
  }
}

/** A late answer carries its outcome; otherwise the result is ok or failed. */
function outcomeOf(record: CommandRecord): CommandOutcome {
  if (record.outcome === 'landed') return 'landed late';
  if (record.outcome !== undefined) return 'outcome unknown';
  return record.ok ? 'ok' : 'failed';
}

/** Warning and worse is an incident; `busy`, `ok` and `ready` are not. */
function isIncident(span: HealthSpan): boolean {
  return severityRank(span.severity) >= severityRank('warning');
}

function healthIncident(machine: string, span: HealthSpan, durationMs: number): Incident {
  const severity = span.severity.toLowerCase();
  const state = severity === 'error' ? 'error' : severity === 'offline' ? 'health offline' : 'warning';
  return { machine, state, start: span.start, end: span.end, durationMs, detail: span.states || `health ${span.severity}` };
}
