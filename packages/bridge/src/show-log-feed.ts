import type { LinkStatus, ShowLogEntry, ShowRecorder } from '@stagelink/core';
import type { CommandRequest } from './command-runner.js';
import type { CommandResult } from './command-result.js';
import type { StatePayload } from './retained-state.js';

/** What a retained topic holds, as the show log names it. */
export type LoggedSubject =
  | { subject: 'fps' | 'health' | 'takeover'; machine: string }
  | { subject: 'health' }
  | { subject: 'transport' | 'clock'; transport: string }
  | { subject: 'director' };

type Payload = Record<string, unknown>;

/**
 * Turns what the bridge publishes into show log entries (`docs/show-log.md`): a topic's value as its record, a
 * stale mark as a `stale` record, the live link's status, and every command's result. Only changes are
 * written: a topic republished with the same entry (a volume change under an unchanged playmode) is not.
 */
export class ShowLogFeed {
  readonly #subjects = new Map<string, LoggedSubject>();
  readonly #lastEntry = new Map<string, string>();
  #director: string | null | undefined;

  constructor(private readonly recorder: ShowRecorder) {}

  /** Logs this topic's publications from now on. */
  follow(topic: string, subject: LoggedSubject): void {
    this.#subjects.set(topic, subject);
  }

  published(topic: string, payload: StatePayload): void {
    const subject = this.#subjects.get(topic);
    if (!subject || typeof payload !== 'object') return;
    const entry = payload.stale === true ? staleEntry(subject, payload) : this.#valueEntry(subject, payload);
    if (!entry) return;
    const json = JSON.stringify(entry);
    if (this.#lastEntry.get(topic) === json) return;
    this.#lastEntry.set(topic, json);
    this.recorder.record(entry);
  }

  link(status: LinkStatus): void {
    this.recorder.record({ kind: 'link', status });
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
