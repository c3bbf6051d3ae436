import { hardwareSummaryOf } from '@stagelink/core';
import type { Member, StateEvent } from './session-events.js';
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

/** The session's transport (or layer) names by the address part OSC spells them with (see oscNameOf). */
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
 * The OSC values of one value of the session's state, each followed by `<address>/stale i` (1 while the value is
 * stale, 0 while it is live). The director and the bridge's own values have no OSC value here (the heartbeat is
 * OscOut's).
 */
export function oscValuesOf(event: StateEvent): OscValue[] {
  const stale = event.marks ? 1 : 0;
  const values: OscValue[] = [];
  const add = (address: string, arg: OscArg | undefined): void => {
    if (!arg || (arg.type !== 's' && !Number.isFinite(arg.value))) return;
    values.push({ address, args: [arg] }, { address: `${address}/stale`, args: [int(stale)] });
  };
  const number = (value: unknown, make: (value: number) => OscArg): OscArg | undefined => (typeof value === 'number' ? make(value) : undefined);
  const word = (value: unknown): OscArg | undefined => (typeof value === 'string' ? text(value) : undefined);

  if (event.what === 'session') {
    add('/session/health', word(event.value.severity));
  } else if (event.what === 'machine') {
    const base = oscMemberBase(event);
    if (event.part === 'fps') add(`${base}/fps`, number(event.value.value, float));
    else if (event.part === 'health') add(`${base}/health`, word(event.value.severity));
    else if (event.part === 'takeover' && typeof event.value.value === 'boolean') add(`${base}/takeover`, int(event.value.value ? 1 : 0));
    else if (event.part === 'hardware') {
      const snapshot = event.value;
      // An SMC that does not answer is `offline` here, as Prometheus' severity 3: its `error` alone would hide why.
      add(`${base}/hardware`, text(snapshot.status === 'offline' ? 'offline' : snapshot.severity));
      add(`${base}/hardware/reasons`, text(snapshot.reasons.join('; ')));
      const { hottest, slowest } = hardwareSummaryOf(snapshot);
      if (hottest) add(`${base}/hardware/hottest`, float(hottest.celsius));
      if (slowest) add(`${base}/hardware/slowest_fan`, int(slowest.rpm));
    }
  } else if (event.what === 'transport') {
    const base = oscMemberBase(event);
    if (event.part === 'state') {
      add(`${base}/playmode`, word(event.value.playmode));
      if (typeof event.value.playing === 'boolean') add(`${base}/playing`, int(event.value.playing ? 1 : 0));
    } else {
      values.push(...clockValues(base, event.value as unknown as Record<string, unknown>, stale));
    }
  } else if (event.what === 'layer') {
    add(`${oscMemberBase(event)}/workload`, word(event.value.state));
  }
  return values;
}

/** Where a machine's, a transport's or a layer's values are, below `/stagelink/<name>`: `/machines/<hostname>`. */
export function oscMemberBase({ what, which }: Member): string {
  return `/${OSC_MEMBER_FOLDERS[what]}/${oscNameOf(which)}`;
}

const OSC_MEMBER_FOLDERS = { machine: 'machines', transport: 'transports', layer: 'renderstream' } as const;

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
