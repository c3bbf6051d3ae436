import type { HardwareSnapshot, ShowLogEntry, ShowRecorder } from '@stagelink/core';
import type { CommandRequest } from './command-runner.js';
import type { CommandResult } from './command-result.js';
import { MEMBER_PARTS, payloadOf, stateKey, type BridgeAdapter, type Member, type StateEvent } from './session-events.js';
import { STALE_REASONS } from './stale-reasons.js';

type Payload = Record<string, unknown>;

/** What a value is about, as the show log names it. */
type LoggedSubject =
  | { subject: 'fps' | 'health' | 'takeover'; machine: string }
  | { subject: 'health' }
  | { subject: 'transport' | 'clock'; transport: string }
  | { subject: 'director' };

/** Why a machine or transport that left is no longer seen: the reason of its last `stale` records. */
const LEFT_REASONS = { machine: STALE_REASONS.leftSession, transport: STALE_REASONS.notInProject } as const;

/**
 * The show log's adapter (`docs/show-log.md`): a value as its record, a stale mark as a `stale` record, the live
 * link's status, a machine or transport that left as a `stale` record of each of its values with the reason, and
 * every command's result. Only changes are written: a value given again with the same entry (a volume change under an
 * unchanged playmode) is not.
 */
export class ShowLogFeed implements BridgeAdapter {
  readonly #lastEntry = new Map<string, { subject: LoggedSubject; json: string }>();
  #director: string | null | undefined;
  /** Each machine's last hardware record: a new one only when it differs. */
  readonly #lastHardware = new Map<string, string>();

  constructor(private readonly recorder: ShowRecorder) {}

  state(event: StateEvent): void {
    if (event.what === 'bridge') {
      this.recorder.record({ kind: 'link', status: event.value.status });
      return;
    }
    if (event.part === 'hardware') {
      this.#hardware(event.which, event.value);
      return;
    }
    // The show log has no record of a RenderStream workload yet; the commands sent to one are recorded.
    if (event.what === 'layer') return;
    const subject = subjectOf(event);
    const payload = payloadOf(event);
    const entry = event.marks ? staleEntry(subject, payload) : this.#valueEntry(subject, payload);
    if (!entry) return;
    const key = stateKey(event);
    const json = JSON.stringify(entry);
    if (this.#lastEntry.get(key)?.json === json) return;
    this.#lastEntry.set(key, { subject, json });
    this.recorder.record(entry);
  }

  /** A machine out of the session, a transport out of the project: each value of it logged says it left, and why. */
  removed(member: Member): void {
    if (member.what === 'layer') return;
    const reason = LEFT_REASONS[member.what];
    for (const part of MEMBER_PARTS[member.what]) {
      if (part === 'hardware') {
        this.#lastHardware.delete(stateKey({ ...member, part }));
        continue;
      }
      const key = stateKey({ ...member, part });
      const last = this.#lastEntry.get(key);
      this.#lastEntry.delete(key);
      if (!last) continue;
      const entry = staleEntry(last.subject, { stale: true, reason });
      if (entry && JSON.stringify(entry) !== last.json) this.recorder.record(entry);
    }
  }

  close(): Promise<void> {
    return this.recorder.close();
  }

  /**
   * A command's result as its sender got it, at the time it was taken (a late answer must not move the cue); a
   * redelivered copy (not run again) is not a command of the show.
   */
  command(request: CommandRequest, result: CommandResult): void {
    if (result.duplicate) return;
    const { transport, machine } = request.body;
    this.recorder.record({
      kind: 'command',
      command: request.path,
      via: request.via,
      ...(transport === undefined ? {} : { transport: namesOf(transport) }),
      ...(machine === undefined ? {} : { machine: namesOf(machine) }),
      id: result.id,
      ok: result.ok,
      ...(result.error === undefined ? {} : { error: result.error }),
      ...(result.code === undefined ? {} : { code: result.code }),
      ...(result.outcome === undefined ? {} : { outcome: result.outcome }),
      ms: Date.now() - request.receivedAt,
    }, new Date(request.receivedAt));
  }

  /**
   * Only what a reader acts on: the status, the severity and why. A stale mark is in the status (`stale`,
   * `offline`), so it is not a `stale` record, and readings alone (temperatures that drift) write nothing.
   */
  #hardware(machine: string, snapshot: HardwareSnapshot): void {
    const entry: ShowLogEntry = {
      kind: 'hardware',
      machine,
      status: snapshot.status,
      severity: snapshot.severity,
      ...(snapshot.reasons.length > 0 ? { reasons: [...snapshot.reasons] } : {}),
    };
    const key = stateKey({ what: 'machine', part: 'hardware', which: machine });
    // A reason names its reading (`CPU Temp is at 93 °C`): the same reasons at other readings are no change.
    const json = JSON.stringify({ ...entry, reasons: entry.reasons?.map(withoutReadings) });
    if (this.#lastHardware.get(key) === json) return;
    this.#lastHardware.set(key, json);
    this.recorder.record(entry);
  }

  #valueEntry(subject: LoggedSubject, payload: Payload): ShowLogEntry | undefined {
    switch (subject.subject) {
      case 'fps':
        return typeof payload.value === 'number' ? { kind: 'fps', machine: subject.machine, value: payload.value, ...numberField('average', payload.average) } : undefined;
      case 'health':
        return { kind: 'health', ...('machine' in subject ? { machine: subject.machine } : {}), severity: String(payload.severity), ...statesField(payload.states) };
      case 'takeover':
        return { kind: 'takeover', machine: subject.machine, value: payload.value === true };
      case 'transport':
        return { kind: 'transport', transport: subject.transport, playmode: String(payload.playmode), playing: payload.playing === true, track: stringOrNull(payload.track) };
      case 'clock':
        return clockEntry(subject.transport, payload);
      case 'director':
        return this.#directorEntry(payload);
    }
  }

  #directorEntry(payload: Payload): ShowLogEntry | undefined {
    const machine = stringOrNull(payload.hostname);
    if (machine === this.#director) return undefined;
    const previous = this.#director;
    this.#director = machine;
    return { kind: 'director', machine, ...(previous === undefined ? {} : { previous }) };
  }
}

/** A reason with its readings (a number and its unit) left out: `CPU Temp is at # °C, over its # °C error line`. */
function withoutReadings(reason: string): string {
  return reason.replace(/-?\d+(?:\.\d+)?\s*(°C|RPM|V|W|%)/g, '#$1');
}

function subjectOf(event: Exclude<StateEvent, { what: 'bridge' | 'layer' } | { part: 'hardware' }>): LoggedSubject {
  switch (event.what) {
    case 'machine':
      return { subject: event.part, machine: event.which };
    case 'transport':
      return { subject: event.part === 'state' ? 'transport' : 'clock', transport: event.which };
    case 'session':
      return { subject: 'health' };
    case 'director':
      return { subject: 'director' };
  }
}

function staleEntry(subject: LoggedSubject, payload: Payload): ShowLogEntry | undefined {
  if (subject.subject === 'director') return undefined;
  const { subject: what, ...names } = subject;
  return { kind: 'stale', subject: what, ...names, reason: String(payload.reason) };
}

function clockEntry(transport: string, payload: Payload): ShowLogEntry {
  const track = (payload.track as { name?: unknown } | undefined)?.name;
  const section = (payload.section as { index?: unknown } | undefined)?.index;
  return {
    kind: 'clock',
    transport,
    status: String(payload.status),
    playing: payload.playing === true,
    ...(typeof track === 'string' ? { track } : {}),
    time: typeof payload.time === 'number' ? payload.time : 0,
    ...(typeof section === 'number' ? { section } : {}),
  };
}

/** A transport or machine as a command named it: a name, `{ name }`, `{ uid }` or a list of them. */
function namesOf(value: unknown): string {
  const items: unknown[] = Array.isArray(value) ? value : [value];
  return items
    .map((item) => (typeof item === 'string' ? item : ((item as { name?: unknown; uid?: unknown } | null)?.name ?? (item as { uid?: unknown } | null)?.uid)))
    .map(String)
    .join(',');
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function numberField(key: string, value: unknown): Record<string, number> {
  return typeof value === 'number' ? { [key]: value } : {};
}

function statesField(value: unknown): { states?: { name: string; severity: string; detail?: string }[] } {
  if (!Array.isArray(value)) return {};
  return {
    states: value.map((state: { name?: unknown; severity?: unknown; detail?: unknown }) => ({
      name: String(state.name),
      severity: String(state.severity),
      ...(typeof state.detail === 'string' && state.detail !== '' ? { detail: state.detail } : {}),
    })),
  };
}
