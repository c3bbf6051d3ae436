import type { Multitransport, NamedRef, Ref, SetList, Track, TrackAnnotations } from '@stagelink/core';
import type { TRANSPORT_REF_COMMANDS } from '@stagelink/core/protocol';
import type { WireTransport } from './dialect.js';
import type { Clock } from './clock.js';
import { toTime, toTrackTime, type CueTarget } from './cues.js';
import { advance, type Motion } from './playhead.js';
import { PLAYMODES, type Playmode } from './playmodes.js';
import { invalidArgument, notFound, outOfRange } from './refusal.js';
import { findByRef, knownNames, describeRef, requireByRef, toNamedRef } from './refs.js';
import { annotationsOf, setListOnWire, trackOnWire, type ShowSetList, type ShowTrack } from './show.js';

export interface TransportModel {
  readonly uid: string;
  /** Changed only as an operator renames it in the project (see rename). */
  name: string;
  engaged: boolean;
  volume: number;
  brightness: number;
  receivingTimecode: boolean;
  /** Playback speed, 1 = normal; only shipping builds can set it (`transport/speed`). */
  speed?: number;
  readonly setList: ShowSetList;
  motion: Motion;
  /** Clock time at which `motion` was last worked out; a playing transport has moved on since. */
  settledAt: number;
  /** A stuck render: the playhead holds while the transport still plays (the `freezePlayhead` control action). */
  playheadFrozen?: boolean;
}

export interface MultitransportModel {
  readonly uid: string;
  readonly name: string;
  readonly transportUids: readonly string[];
}

export type TransportCommand = (typeof TRANSPORT_REF_COMMANDS)[number];

/** One item of a goto request. */
export interface Cue {
  transport: Ref;
  target: CueTarget;
  /** Undefined keeps the transport's playmode. */
  playmode?: Playmode;
}

export interface LevelChange {
  transport: Ref;
  value: number;
}

/** Playmode each command leaves (the API documents name the playing ones; `stop` and `returntostart` are the simulator's choice). */
const COMMAND_PLAYMODES: Readonly<Record<TransportCommand, Playmode>> = {
  play: PLAYMODES.play,
  playloopsection: PLAYMODES.loopSection,
  playsection: PLAYMODES.playSection,
  returntostart: PLAYMODES.stop,
  stop: PLAYMODES.stop,
};

/**
 * The transports of the session. A Ref may name a transport or a multitransport, which addresses all of its
 * transports. Every request is checked whole before anything changes: one bad item refuses the request.
 */
export class Transports {
  #active: { uid: string; multi: boolean };
  /** Transports `activetransport` lists instead, several that are no multitransport's members (see listActive). */
  #listedActive: string[] | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly transports: readonly TransportModel[],
    private readonly multitransports: readonly MultitransportModel[],
    active: Ref,
  ) {
    this.#active = { uid: '', multi: false };
    this.selectActive(active);
  }

  list(): WireTransport[] {
    this.#settle();
    return this.transports.map(transportOnWire);
  }

  multitransportList(): Multitransport[] {
    return this.multitransports.map((multi) => ({
      uid: multi.uid,
      name: multi.name,
      engaged: this.#members(multi).every((transport) => transport.engaged),
      transports: [...multi.transportUids],
    }));
  }

  /** The active transport, or every transport of the active multitransport. */
  active(): WireTransport[] {
    this.#settle();
    const listed = this.#listedActive;
    if (listed) return this.transports.filter((transport) => listed.includes(transport.uid)).map(transportOnWire);
    const { uid, multi } = this.#active;
    const selected = multi ? this.multitransports.find((m) => m.uid === uid) : undefined;
    const models = selected ? this.#members(selected) : this.transports.filter((transport) => transport.uid === uid);
    return models.map(transportOnWire);
  }

  /** Which transport (or multitransport) `activetransport` reports. The API has no call for it: see control. */
  selectActive(ref: Ref): void {
    const multi = findByRef(this.multitransports, ref);
    const transport = multi ? undefined : findByRef(this.transports, ref);
    const selected = multi ?? transport;
    if (!selected) throw this.#notFound(ref);
    this.#active = { uid: selected.uid, multi: multi !== undefined };
    this.#listedActive = undefined;
  }

  /**
   * Makes `activetransport` list these transports, as some r34 projects list five of their six with no
   * multitransport joining them: nothing tells which one the operator chose. `selectActive` ends it.
   */
  listActive(refs: readonly Ref[]): void {
    const listed = refs.map((ref) => findByRef(this.transports, ref));
    const missing = refs.find((_ref, index) => listed[index] === undefined);
    if (missing) throw this.#notFound(missing);
    this.#listedActive = listed.map((transport) => (transport as TransportModel).uid);
  }

  /**
   * Renames a transport, as an operator does in the project: every answer and live object name says the new name
   * from then on. Names a transport only: a multitransport's name is not a transport's.
   */
  rename(ref: Ref, name: string): void {
    const transport = findByRef(this.transports, ref);
    if (!transport) throw this.#notFound(ref);
    if (name.trim() === '') throw invalidArgument('A transport needs a name: the new name is empty.');
    transport.name = name;
  }

  /** Where a transport's playhead is; the wire Transport has only the current track. */
  positionOf(ref: Ref): { track: NamedRef; time: number; playmode: Playmode } {
    this.#settle();
    const [transport] = this.#resolve(ref);
    const track = transport?.setList.tracks[transport.motion.playhead.trackIndex];
    if (!transport || !track) throw this.#notFound(ref);
    return { track: toNamedRef(track), time: transport.motion.playhead.time, playmode: transport.motion.playmode };
  }

  /**
   * Holds the playhead of a transport (every one of a multitransport) where it is, or lets it run again from
   * there: a stuck render. The playmode is kept, so the transport still says it plays, on REST and on the stream.
   * Gotos still move a frozen playhead; it just does not run.
   */
  freezePlayhead(ref: Ref, on: boolean): void {
    this.#settle();
    for (const transport of this.#resolve(ref)) transport.playheadFrozen = on;
  }

  /** Names of the transports whose playhead is frozen. */
  frozenPlayheads(): string[] {
    return this.transports.filter((transport) => transport.playheadFrozen).map((transport) => transport.name);
  }

  /**
   * Moves the playhead as an operator does on the timeline in the Designer GUI: to `time` seconds into the current
   * track, or into `track` of the transport's set list; the playmode is kept and no command is involved.
   */
  jumpPlayhead(ref: Ref, time: number, track?: Ref): void {
    this.cue([{ transport: ref, target: track ? toTrackTime(track, time) : toTime(time) }]);
  }

  setLists(): SetList[] {
    return uniqueByUid(this.transports.map((transport) => transport.setList)).map(setListOnWire);
  }

  tracks(): Track[] {
    return this.#allTracks().map(trackOnWire);
  }

  annotations(track: Ref): TrackAnnotations {
    return annotationsOf(requireByRef(this.#allTracks(), track, 'track'));
  }

  command(refs: readonly Ref[], command: TransportCommand): void {
    const targets = this.#resolveAll(refs);
    for (const transport of targets) {
      const playhead = command === 'returntostart' ? { trackIndex: 0, time: 0 } : transport.motion.playhead;
      transport.motion = { playhead, playmode: COMMAND_PLAYMODES[command] };
    }
  }

  cue(cues: readonly Cue[]): void {
    this.#settle();
    requireSome(cues);
    const moves = cues.flatMap((cue) => {
      const playmode = cue.playmode;
      return this.#resolve(cue.transport).map((transport) => {
        const at = transport.motion.playhead;
        const playhead = cue.target({ setList: transport.setList, at, transport: `transport "${transport.name}"` });
        return { transport, motion: { playhead, playmode: playmode ?? transport.motion.playmode } };
      });
    });
    for (const { transport, motion } of moves) transport.motion = motion;
  }

  setVolume(changes: readonly LevelChange[]): void {
    for (const { transport, value } of this.#levels(changes, 'volume')) transport.volume = value;
  }

  setBrightness(changes: readonly LevelChange[]): void {
    for (const { transport, value } of this.#levels(changes, 'brightness')) transport.brightness = value;
  }

  /** Stored and reported in the control summary; the playhead keeps its own pace. */
  setSpeed(changes: readonly LevelChange[]): void {
    requireSome(changes);
    const resolved = changes.flatMap(({ transport, value }) => {
      if (!(value > 0 && value <= 10)) throw outOfRange(`speed ${value} for transport ${describeRef(transport)} is outside 0 to 10.`);
      return this.#resolve(transport).map((model) => ({ model, value }));
    });
    for (const { model, value } of resolved) model.speed = value;
  }

  /** Speed of each transport set through `transport/speed`, by name. */
  speeds(): Record<string, number> {
    return Object.fromEntries(this.transports.map((transport) => [transport.name, transport.speed ?? 1]));
  }

  setEngaged(changes: readonly { transport: Ref; engaged: boolean }[]): void {
    requireSome(changes);
    const resolved = changes.flatMap(({ transport, engaged }) => this.#resolve(transport).map((model) => ({ model, engaged })));
    for (const { model, engaged } of resolved) model.engaged = engaged;
  }

  /** Volume and brightness are 0 to 1 (the spec shows no range). */
  #levels(changes: readonly LevelChange[], what: string): { transport: TransportModel; value: number }[] {
    requireSome(changes);
    return changes.flatMap(({ transport, value }) => {
      if (value < 0 || value > 1) throw outOfRange(`${what} ${value} for transport ${describeRef(transport)} is outside 0 to 1.`);
      return this.#resolve(transport).map((model) => ({ transport: model, value }));
    });
  }

  #resolveAll(refs: readonly Ref[]): TransportModel[] {
    this.#settle();
    requireSome(refs);
    return refs.flatMap((ref) => this.#resolve(ref));
  }

  #resolve(ref: Ref): TransportModel[] {
    const transport = findByRef(this.transports, ref);
    if (transport) return [transport];
    const multi = findByRef(this.multitransports, ref);
    if (multi) return this.#members(multi);
    throw this.#notFound(ref);
  }

  #members(multi: MultitransportModel): TransportModel[] {
    return this.transports.filter((transport) => multi.transportUids.includes(transport.uid));
  }

  #notFound(ref: Ref): Error {
    return notFound(`Transport ${describeRef(ref)} not found${knownNames([...this.transports, ...this.multitransports])}.`);
  }

  #allTracks(): ShowTrack[] {
    return uniqueByUid(this.transports.flatMap((transport) => transport.setList.tracks));
  }

  /** Brings every playing transport up to the clock; the model owns no timers. */
  #settle(): void {
    const now = this.clock.now();
    for (const transport of this.transports) {
      const seconds = transport.playheadFrozen ? 0 : (now - transport.settledAt) / 1000;
      transport.motion = advance(transport.setList, transport.motion, seconds);
      transport.settledAt = now;
    }
  }
}

function transportOnWire(transport: TransportModel): WireTransport {
  const track = transport.setList.tracks[transport.motion.playhead.trackIndex];
  return {
    uid: transport.uid,
    name: transport.name,
    engaged: transport.engaged,
    volume: transport.volume,
    brightness: transport.brightness,
    playmode: transport.motion.playmode,
    currentTrack: track ? toNamedRef(track) : { uid: '0', name: '' },
    receivingTimecode: transport.receivingTimecode,
    setList: setListOnWire(transport.setList),
  };
}

function requireSome(items: readonly unknown[]): void {
  if (items.length === 0) throw invalidArgument('No transport given: the transports array is empty.');
}

function uniqueByUid<T extends { uid: string }>(items: readonly T[]): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(item.uid)) seen.set(item.uid, item);
  return [...seen.values()];
}
