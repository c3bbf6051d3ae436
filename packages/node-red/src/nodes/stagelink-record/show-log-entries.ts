import { fpsMachineOf, isPlaying, worstHealth, type HealthEntry, type ShowLogEntry, type StaleSubject } from '@stagelink/core';
import type { NodeDef, NodeMessage } from '../../shared/node-red.js';

/** What the record node knows besides the msg: the machine a local monitor runs on, a sender's settings. */
export interface EntryContext {
  /** The hostname of the machine `localFps` reads: the record node's server's director, else its host. */
  localMachine(): string | undefined;
  /** The settings of the node `id` in the deployed flows (a Catch msg names the node that failed). */
  settingsOf(id: string): NodeDef | undefined;
}

/** The reads of the status node that are not health: their reading state says nothing the show log keeps. */
const OTHER_STATUS_READS: ReadonlySet<unknown> = new Set(['notifications', 'project', 'session']);
const LIVE_STATES: ReadonlySet<unknown> = new Set(['online', 'stale', 'offline']);
const STALE_SUBJECTS: ReadonlySet<unknown> = new Set<StaleSubject>(['fps', 'health', 'takeover', 'transport', 'clock']);
const LINK_STATUSES: ReadonlySet<unknown> = new Set(['connecting', 'online', 'offline']);
/** Failover operations that act (the others read settings): a command of the show. */
const FAILOVER_COMMANDS: ReadonlySet<unknown> = new Set(['failovermachine', 'restoremachine', 'applydefaultrouting']);


type Payload = Record<string, unknown>;

/**
 * Turns the msgs of stagelink nodes into show log entries (`docs/show-log.md`), as the bridge turns what it
 * publishes: FPS values of the live update node, health reads of the status node per machine, the show events,
 * show clock snapshots, transport and failover results (and their failures, as a Catch node hands them on), and
 * the stale or offline states these nodes send. Health, the director and the link are written on change only.
 * `entriesOf` answers undefined for a msg it cannot read, and an empty list for one it reads that holds nothing
 * the log keeps (a cue passed on the show clock, a live value flowing again).
 */
export class ShowLogEntries {
  readonly #health = new Map<string, string>();
  /** The machine of each FPS topic seen, for the stale state the live update node sends under that topic. */
  readonly #fpsMachines = new Map<string, string>();
  #link: string | undefined;
  #director: string | null | undefined;

  constructor(private readonly context: EntryContext) {}

  entriesOf(msg: NodeMessage): ShowLogEntry[] | undefined {
    const payload = msg.payload;
    const failed = failureOf(msg);
    if (failed) return this.#failure(msg, failed);
    if (isObject(payload) && typeof payload.kind === 'string') return validEntry(payload) ? this.#changed([payload]) : undefined;
    if (typeof msg.event === 'string' && isObject(payload) && 'value' in payload) return this.#event(msg.event, payload);
    if (typeof msg.object === 'string' && typeof msg.property === 'string') return this.#liveValue(msg, msg.object);
    if (LIVE_STATES.has(payload) && typeof msg.topic === 'string') return this.#state(msg.topic, payload as string, msg.reason);
    if (Array.isArray(payload) && typeof msg.severity === 'string') return this.#healthRead(payload);
    if (!isObject(payload)) return undefined;
    if (isObject(payload.transport) && typeof payload.status === 'string' && typeof payload.time === 'number') return [clockEntry(payload)];
    if (typeof payload.command === 'string' && Array.isArray(payload.transports)) {
      return [{ kind: 'command', command: `transport/${payload.command}`, transport: namesOf(payload.transports), ok: true }];
    }
    if (FAILOVER_COMMANDS.has(payload.operation)) {
      return [{ kind: 'command', command: `failover/${String(payload.operation)}`, ...optional('machine', payload.machine === undefined ? undefined : namesOf(payload.machine)), ok: true }];
    }
    return undefined;
  }

  /** A stale mark ends a subject's value: its next value must be written even when it did not change. */
  #changed(entries: ShowLogEntry[]): ShowLogEntry[] {
    return entries.filter((entry) => {
      if (entry.kind === 'stale') {
        if (entry.subject === 'health') this.#health.clear();
        else if (entry.machine !== undefined) this.#health.delete(entry.machine.toLowerCase());
        return true;
      }
      if (entry.kind === 'health') return this.#seen(this.#health, (entry.machine ?? '').toLowerCase(), JSON.stringify([entry.severity, entry.states]));
      if (entry.kind === 'link') {
        if (this.#link === entry.status) return false;
        this.#link = entry.status;
        // Offline, every value is stale: after it, each comes back as news.
        if (entry.status !== 'online') this.#health.clear();
        return true;
      }
      if (entry.kind === 'director') {
        if (this.#director === entry.machine) return false;
        this.#director = entry.machine;
      }
      return true;
    });
  }

  #seen(last: Map<string, string>, key: string, value: string): boolean {
    if (last.get(key) === value) return false;
    last.set(key, value);
    return true;
  }

  /** The live update node's first output: FPS of the machine it names, found from the monitor it watches. */
  #liveValue(msg: NodeMessage, object: string): ShowLogEntry[] | undefined {
    const value = typeof msg.sample === 'number' ? msg.sample : msg.payload;
    if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
    const fps = fpsMachineOf(object);
    if (!fps) return undefined;
    const machine = 'hostname' in fps ? fps.hostname : this.context.localMachine();
    if (machine === undefined) return undefined;
    if (typeof msg.topic === 'string') this.#fpsMachines.set(msg.topic, machine);
    const average = typeof msg.sample === 'number' && typeof msg.payload === 'number' ? { average: msg.payload } : {};
    return [{ kind: 'fps', machine, value, ...average }];
  }

  /**
   * The second output of the live update node (`online`, `stale`, `offline`) or of the status node (the same words
   * with `msg.reason` when a read failed). The live stream going offline is the link; a value that stopped is stale.
   */
  #state(topic: string, state: string, reason: unknown): ShowLogEntry[] {
    if (typeof reason === 'string' || OTHER_STATUS_READS.has(topic) || topic === 'health') {
      if (state === 'online' || OTHER_STATUS_READS.has(topic)) return [];
      return this.#changed([{ kind: 'stale', subject: 'health', reason: typeof reason === 'string' ? reason : state }]);
    }
    if (state !== 'stale') return this.#changed([{ kind: 'link', status: state as 'online' | 'offline' }]);
    const machine = this.#fpsMachines.get(topic) ?? (topic === 'localFps' ? this.context.localMachine() : undefined);
    return machine === undefined ? [] : this.#changed([{ kind: 'stale', subject: 'fps', machine, reason: 'no values' }]);
  }

  /** A health read of the status node: each machine's worst state and the states behind it, on change. */
  #healthRead(entries: unknown[]): ShowLogEntry[] | undefined {
    if (!entries.every((entry) => isObject(entry) && isObject(entry.machine) && isObject(entry.status) && Array.isArray(entry.status.states))) return undefined;
    const health = entries as HealthEntry[];
    const hostnames = [...new Set(health.map((entry) => entry.machine.hostname).filter((hostname) => typeof hostname === 'string'))];
    return this.#changed(
      hostnames.map((machine) => ({
        kind: 'health',
        machine,
        severity: worstHealth(health, machine),
        states: health
          .filter((entry) => entry.machine.hostname === machine)
          .flatMap((entry) => entry.status.states.map(({ name, severity, detail }) => ({ name: String(name), severity: String(severity), ...optional('detail', detail || undefined) }))),
      })),
    );
  }

  /** The show events node's msgs, and the show clock's status events (its other events are in its snapshots). */
  #event(event: string, payload: Payload): ShowLogEntry[] | undefined {
    const { value } = payload;
    const machine = typeof payload.machine === 'string' ? payload.machine : undefined;
    const transport = typeof payload.transport === 'string' ? payload.transport : undefined;
    switch (event) {
      case 'director':
        return typeof value === 'string' ? this.#changed([{ kind: 'director', machine: value, ...optional('previous', typeof payload.previous === 'string' ? payload.previous : undefined) }]) : undefined;
      case 'playmode':
        return transport && typeof value === 'string' ? [{ kind: 'transport', transport, playmode: value, playing: isPlaying({ playmode: value }) }] : undefined;
      case 'track': {
        const playmode = typeof payload.playmode === 'string' ? payload.playmode : 'Unknown';
        return transport && typeof value === 'string' ? [{ kind: 'transport', transport, playmode, playing: isPlaying({ playmode }), track: value }] : undefined;
      }
      case 'health':
        return machine && typeof value === 'string' ? this.#changed([{ kind: 'health', machine, severity: value }]) : undefined;
      case 'takeover':
        return machine && typeof value === 'boolean' ? [{ kind: 'takeover', machine, value }] : undefined;
      case 'fps':
        return machine && typeof payload.fps === 'number' ? [{ kind: 'fps', machine, value: payload.fps, average: payload.fps }] : undefined;
      case 'stale': {
        const subject = payload.watching;
        if (!machine || !STALE_SUBJECTS.has(subject) || typeof value !== 'boolean') return undefined;
        return value ? this.#changed([{ kind: 'stale', subject: subject as StaleSubject, machine, reason: 'no values' }]) : [];
      }
      case 'connection':
        return LINK_STATUSES.has(value) ? this.#changed([{ kind: 'link', status: value as 'online' | 'offline' }]) : undefined;
      case 'status':
        if (!transport || !LIVE_STATES.has(value)) return undefined;
        return value === 'online' ? [] : [{ kind: 'stale', subject: 'clock', transport, reason: String(value) }];
      case 'section':
      case 'cue':
      case 'remaining':
        return [];
      default:
        return undefined;
    }
  }

  /**
   * A transport or failover node's failure, as a Catch node hands it on: the command from the msg, else from the
   * failed node's settings (a setting filled in wins over the msg, as the node read it).
   */
  #failure(msg: NodeMessage, failed: Failure): ShowLogEntry[] {
    const settings = this.context.settingsOf(failed.source.id) ?? ({} as Partial<NodeDef>);
    const own = (name: string): unknown => {
      const typed = settings[`${name}Type`];
      const value = settings[name];
      return value !== undefined && value !== '' && (typed === undefined || typed === 'str') ? value : msg[name];
    };
    const isTransport = failed.source.type === 'stagelink-transport';
    const name = own(isTransport ? 'command' : 'operation') ?? (isTransport ? undefined : 'settings');
    const target = own(isTransport ? 'transport' : 'machine');
    const code = typeof failed.code === 'string' ? failed.code : undefined;
    return [
      {
        kind: 'command',
        command: `${isTransport ? 'transport' : 'failover'}/${typeof name === 'string' ? name : '?'}`,
        ...optional(isTransport ? 'transport' : 'machine', target === undefined || target === null || target === '' ? undefined : namesOf(target)),
        ok: false,
        error: failed.message,
        ...optional('code', code),
        ...optional('outcome', code === 'STAGELINK_ERR_LATE_LANDED' ? 'landed' : code === 'STAGELINK_ERR_LATE_UNKNOWN' ? 'unknown' : undefined),
      },
    ];
  }
}

interface Failure {
  message: string;
  code?: unknown;
  source: { id: string; type: string };
}

/** A Catch node's msg for a failure of a transport or failover node. */
function failureOf(msg: NodeMessage): Failure | undefined {
  const error = msg.error;
  if (!isObject(error) || !isObject(error.source) || typeof error.source.id !== 'string') return undefined;
  if (error.source.type !== 'stagelink-transport' && error.source.type !== 'stagelink-failover') return undefined;
  return { message: String(error.message), code: error.code, source: { id: error.source.id, type: error.source.type } };
}

function clockEntry(payload: Payload): ShowLogEntry {
  const transport = payload.transport as { name?: unknown };
  const track = isObject(payload.track) ? payload.track.name : undefined;
  const section = isObject(payload.section) ? payload.section.index : undefined;
  return {
    kind: 'clock',
    transport: String(transport.name),
    status: String(payload.status),
    playing: payload.playing === true,
    ...optional('track', typeof track === 'string' ? track : undefined),
    time: payload.time as number,
    ...optional('section', typeof section === 'number' ? section : undefined),
  };
}

/** Whether a function node's payload is a show log entry of a kind the format has, with the fields it needs. */
function validEntry(entry: Payload): entry is Payload & ShowLogEntry {
  const text = (key: string): boolean => typeof entry[key] === 'string';
  const flag = (key: string): boolean => typeof entry[key] === 'boolean';
  const number = (key: string): boolean => typeof entry[key] === 'number' && Number.isFinite(entry[key]);
  switch (entry.kind) {
    case 'fps':
      return text('machine') && number('value');
    case 'health':
      return text('severity');
    case 'takeover':
      return text('machine') && flag('value');
    case 'director':
      return text('machine') || entry.machine === null;
    case 'link':
      return LINK_STATUSES.has(entry.status);
    case 'stale':
      return STALE_SUBJECTS.has(entry.subject) && text('reason');
    case 'transport':
      return text('transport') && text('playmode') && flag('playing');
    case 'clock':
      return text('transport') && text('status') && flag('playing') && number('time');
    case 'command':
      return text('command') && flag('ok');
    default:
      return false;
  }
}

/** A transport or machine as a node names it: a name, `{ name }`, `{ uid }` or a list of them. */
function namesOf(value: unknown): string {
  const items: unknown[] = Array.isArray(value) ? value : [value];
  return items.map((item) => (isObject(item) ? String(item.name ?? item.uid) : String(item))).join(',');
}

function optional<Key extends string, Value>(key: Key, value: Value | undefined): { [K in Key]?: Value } {
  return (value === undefined ? {} : { [key]: value }) as { [K in Key]?: Value };
}

function isObject(value: unknown): value is Payload {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
