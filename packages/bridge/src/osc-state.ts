import type { StatePayload } from './retained-state.js';
import { topicSegment } from './topics.js';

/** One OSC argument with its OSC 1.0 type: `i` int32, `f` float32, `s` string. */
export type OscArg = { type: 'i'; value: number } | { type: 'f'; value: number } | { type: 's'; value: string };

/** One OSC message the bridge sends: an address below `/stagelink/<name>` and its typed arguments. */
export interface OscValue {
  address: string;
  args: OscArg[];
}

const int = (value: number): OscArg => ({ type: 'i', value: Math.trunc(value) });
const float = (value: number): OscArg => ({ type: 'f', value });
const text = (value: string): OscArg => ({ type: 's', value });

/**
 * Characters an OSC address part may not hold (OSC 1.0: space, `#`, `*`, `,`, `/`, `?`, `[`, `]`, `{`, `}`) become
 * `_`, as `/`, `+` and `#` do in topics: a receiver matching patterns would read them as wildcards.
 */
export function oscSegment(name: string): string {
  const segment = name.replace(/[\s#*,/?[\]{}]/g, '_');
  return segment === '' ? '_' : segment;
}

/**
 * A session's name (a machine's hostname, a transport's name) as OSC addresses spell it: its MQTT topic segment made
 * an address part, so state sent and commands taken name a transport alike whatever its name holds.
 */
export function oscNameOf(name: string): string {
  return oscSegment(topicSegment(name));
}

/** The session's transport names by the address part OSC spells them with (see oscNameOf). */
export class OscTransportNames {
  readonly #names = new Map<string, string>();

  add(name: string): void {
    this.#names.set(oscNameOf(name), name);
  }

  /** The session's name of an address's transport part; the part itself when no transport is spelt that way. */
  nameOf(segment: string): string {
    return this.#names.get(segment) ?? segment;
  }
}

/** The `<name>` of `/stagelink/<name>/...`: the last level of the MQTT prefix, as an address part. */
export function oscBridgeName(prefix: string): string {
  return oscSegment(prefix.split('/').at(-1) ?? prefix);
}

/**
 * The OSC values of one retained topic's payload (`suffix` is the topic below the prefix), each followed by
 * `<address>/stale i` (1 while the value is stale, 0 while it is live). Topics without OSC values give none.
 */
export function oscValuesOf(suffix: string, payload: StatePayload): OscValue[] {
  if (typeof payload !== 'object') return [];
  const parts = suffix.split('/');
  const stale = payload.stale === true ? 1 : 0;
  const values: OscValue[] = [];
  const add = (address: string, arg: OscArg | undefined): void => {
    if (!arg || (arg.type !== 's' && !Number.isFinite(arg.value))) return;
    values.push({ address, args: [arg] }, { address: `${address}/stale`, args: [int(stale)] });
  };
  const number = (value: unknown, make: (value: number) => OscArg): OscArg | undefined => (typeof value === 'number' ? make(value) : undefined);
  const word = (value: unknown): OscArg | undefined => (typeof value === 'string' ? text(value) : undefined);

  if (parts.length === 2 && parts[0] === 'session' && parts[1] === 'health') {
    add('/session/health', word(payload.severity));
  } else if (parts.length === 3 && parts[0] === 'machines') {
    const base = `/machines/${oscNameOf(parts[1] ?? '')}`;
    if (parts[2] === 'fps') add(`${base}/fps`, number(payload.value, float));
    else if (parts[2] === 'health') add(`${base}/health`, word(payload.severity));
    else if (parts[2] === 'takeover' && typeof payload.value === 'boolean') add(`${base}/takeover`, int(payload.value ? 1 : 0));
  } else if (parts.length === 3 && parts[0] === 'transports') {
    const base = `/transports/${oscNameOf(parts[1] ?? '')}`;
    if (parts[2] === 'state') {
      add(`${base}/playmode`, word(payload.playmode));
      if (typeof payload.playing === 'boolean') add(`${base}/playing`, int(payload.playing ? 1 : 0));
    } else if (parts[2] === 'clock') {
      values.push(...clockValues(base, payload, stale));
    }
  }
  return values;
}

/**
 * A show clock: the playhead, its track, the section it is in (its 0-based index, -1 in a track without sections)
 * and the time left in it (the track's when it has no sections), and the next cue (a tag's or a note's value, ""
 * when none is ahead) with the time until it (-1 when none).
 */
function clockValues(base: string, clock: Record<string, unknown>, stale: number): OscValue[] {
  const section = clock.section as { index?: unknown; remaining?: unknown } | undefined;
  const cue = clock.cue as { next?: { value?: unknown }; nextIn?: unknown } | undefined;
  const track = clock.track as { name?: unknown } | undefined;
  const numberOr = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
  const values: [string, OscArg][] = [
    ['time', float(numberOr(clock.time, 0))],
    ['track', text(typeof track?.name === 'string' ? track.name : '')],
    ['track_remaining', float(numberOr(clock.trackRemaining, 0))],
    ['section', int(numberOr(section?.index, -1))],
    ['section_remaining', float(numberOr(section?.remaining, numberOr(clock.trackRemaining, 0)))],
    ['cue_next', text(typeof cue?.next?.value === 'string' ? cue.next.value : '')],
    ['cue_next_in', float(numberOr(cue?.nextIn, -1))],
  ];
  return values.flatMap(([name, arg]) => [
    { address: `${base}/${name}`, args: [arg] },
    { address: `${base}/${name}/stale`, args: [int(stale)] },
  ]);
}
