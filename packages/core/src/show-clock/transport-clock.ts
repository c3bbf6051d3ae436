import { StagelinkError } from '../errors.js';
import type { Logger } from '../http/logger.js';
import { shown } from '../media-server/input-checks.js';
import type { Playmode } from '../media-server/playmode.js';
import type { Multitransport, Ref, Track, TrackAnnotations, Transport } from '../media-server/types.js';
import type { LiveClient, LiveStatus, LiveSubscription } from '../live/live-client.js';
import { transportRequest } from '../live/presets.js';
import { playheadAt, positionIn, timelineOf, type ClockPosition, type PlayerReading, type TrackTimeline } from './clock-math.js';
import { WatcherTeller, type Watcher } from './clock-watchers.js';
import { findTransport, type FoundTransport } from './find-transport.js';

/** What one transport's clock shows now: where it is and what comes next, times in seconds. */
export interface ShowClockSnapshot extends ClockPosition {
  /** The transport or multitransport watched, as the server names it. */
  transport: { uid: string; name: string };
  /** `online` only while the stream is up and the playhead moves as it should; nothing extrapolates otherwise. */
  status: ClockStatus;
  playmode: Playmode;
  playing: boolean;
  track: { uid: string; name: string; length: number };
  volume: number;
  brightness: number;
  engaged: boolean;
  /** The director's words for its incoming timecode, when it reports them. */
  timecode?: { status: string };
}

export type ClockStatus = 'online' | 'stale' | 'offline';

export interface WatchOptions {
  /** Told the clock's status now and on every change. */
  onStatus?(status: ClockStatus): void;
  /** A problem reading the transport, its track or its annotations; the clock keeps going with what it has. */
  onError?(error: StagelinkError): void;
}

/** One watcher's clock. `current` is worked out when read: between updates it moves on with the playhead. */
export interface TransportWatch {
  readonly current: ShowClockSnapshot | undefined;
  close(): void;
}

/** What the clocks read: the client's live stream and its transport reads. */
export interface ClockSources {
  subscribe: LiveClient['subscribe'];
  transports(): Promise<{ transports: Transport[]; multitransports: Multitransport[] }>;
  tracks(): Promise<Track[]>;
  annotations(track: Ref): Promise<TrackAnnotations>;
}

export interface ClockTiming {
  /** How long a playhead may stand still while playing before the clock is stale. */
  frozenAfterMs: number;
  /** How often the current track's annotations are read again, to follow an operator editing sections. */
  annotationsEveryMs: number;
  /** How soon a transport that could not be read is tried again. */
  retryMs: number;
}

/** How often the director sends the player's properties: the playhead moves in between by extrapolation. */
export const CLOCK_INTERVAL_MS = 100;

/** The player's properties on a transport's live object, as shipping directors name them. */
const PROPERTY = {
  time: 'object.player.tRender',
  playing: 'object.player.playing',
  playmode: 'object.player.playMode.state',
  trackUid: 'str(object.player.track.uid)',
  trackName: 'str(object.player.track.description)',
  engaged: 'object.engaged',
  volume: 'object.volume',
  brightness: 'object.brightness',
  timecode: 'str(object.tcStatusString)',
} as const;

/**
 * What places the show: which track, how it plays, where the playhead is and whether it moves. A clock is online
 * only once each has come over the current link; any one from before a drop may be what the show has left.
 */
const PLACING: readonly string[] = [PROPERTY.time, PROPERTY.playing, PROPERTY.playmode, PROPERTY.trackUid, PROPERTY.trackName];

/**
 * What describes the transport without placing the show. These are subscribed as a group of their own: a
 * subscription is stale while any of its properties is, and one that never answers (a build without a timecode
 * status) must not hold the whole clock stale.
 */
const DESCRIBING: readonly string[] = [PROPERTY.engaged, PROPERTY.volume, PROPERTY.brightness, PROPERTY.timecode];

/** `object.player.playMode.state` as the director numbers it. */
const PLAYMODE_STATES: readonly Playmode[] = ['Play', 'PlaySection', 'Loop', 'Stop'];

/**
 * One transport's clock: the live player properties, the track's timeline, and the watchers told of changes. A
 * multitransport's clock reads its first member's player and is named as the multitransport.
 */
export class TransportClock {
  readonly #watchers = new Set<Watcher>();
  readonly #timelines = new Map<string, TrackTimeline>();
  /** What was asked for: the snapshots name it. */
  #target: { uid: string; name: string };
  /** The transport whose player is read. */
  #transport: Transport;
  readonly #subscriptions: LiveSubscription[] = [];
  #linkStatus: LiveStatus = 'offline';
  /** The playhead as last sent, and when; undefined until the director has sent it. */
  #playhead: { time: number; at: number } | undefined;
  /**
   * The player's properties the director has sent since the stream last came up. A stream that dropped and came
   * back is online before the director answers the new subscriptions (one at a time) with their values: until every
   * placing property has come, the clock holds what it saw before the drop, which the show may have left long since
   * (stopped, moved to another track).
   */
  readonly #heardSinceUp = new Set<string>();
  #playing = false;
  #playmode: Playmode = 'Unknown';
  #values: { trackUid?: string; trackName?: string; engaged?: boolean; volume?: number; brightness?: number; timecode?: string } = {};
  /** When the playhead last moved; the frozen check compares against it. */
  #movedAt = 0;
  #frozen = false;
  #frozenTimer: NodeJS.Timeout | undefined;
  /** The next read of the transport (after a failure) or of the track's annotations. */
  #nextRead: NodeJS.Timeout | undefined;
  #disposed = false;
  readonly #tell: WatcherTeller;

  constructor(
    found: FoundTransport,
    private readonly sources: ClockSources,
    private readonly timing: ClockTiming,
    logger: Logger,
    private readonly onDisposed: () => void,
  ) {
    this.#target = found.target;
    this.#transport = found.transport;
    this.#tell = new WatcherTeller(shown(found.target.name), logger);
  }

  /** Starts watching, once its first watchers are added: a problem at once is told to them. */
  start(): void {
    this.#watch();
  }

  /** Whether a ref names what this clock watches, as the server last listed it. */
  isNamedBy(ref: Ref): boolean {
    return (ref.uid === undefined || ref.uid === this.#target.uid) && (ref.name === undefined || ref.name === this.#target.name);
  }

  add(watcher: Watcher): void {
    this.#watchers.add(watcher);
    watcher.clock = this;
    queueMicrotask(() => this.#tellStatus(watcher));
  }

  remove(watcher: Watcher): void {
    if (this.#watchers.delete(watcher) && this.#watchers.size === 0) this.dispose();
  }

  snapshotFor(watcher: Watcher): ShowClockSnapshot | undefined {
    return this.#watchers.has(watcher) && !this.#disposed ? this.#snapshot() : undefined;
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#watchers.clear();
    for (const subscription of this.#subscriptions.splice(0)) subscription.close();
    clearTimeout(this.#frozenTimer);
    clearTimeout(this.#nextRead);
    this.onDisposed();
  }

  get #status(): ClockStatus {
    if (this.#linkStatus !== 'online') return this.#linkStatus === 'stale' ? 'stale' : 'offline';
    // Not live until the director has told where the show is over this link (see #heardSinceUp).
    if (!this.#playhead || !PLACING.every((property) => this.#heardSinceUp.has(property))) return 'offline';
    return this.#frozen ? 'stale' : 'online';
  }

  get #reading(): PlayerReading | undefined {
    return this.#playhead && { ...this.#playhead, playing: this.#playing, playmode: this.#playmode };
  }

  /**
   * Watches the transport's live object. Failing, it is told once and tried again with the transport read afresh:
   * one whose name the live stream cannot address (`Stage (L)`) may be renamed in the project meanwhile.
   */
  #watch(): void {
    try {
      this.#subscribe(this.#transport.name);
    } catch (error) {
      for (const subscription of this.#subscriptions.splice(0)) subscription.close();
      this.#problem(error);
      this.#nextRead = setTimeout(() => void this.#findAgain(), this.timing.retryMs);
      return;
    }
    this.#tell.forgetProblems();
    this.#scheduleRefresh();
  }

  async #findAgain(): Promise<void> {
    try {
      const found = findTransport({ uid: this.#target.uid }, await this.sources.transports());
      if (this.#disposed) return;
      this.#target = found.target;
      this.#transport = found.transport;
    } catch (error) {
      this.#problem(error);
      if (!this.#disposed) this.#nextRead = setTimeout(() => void this.#findAgain(), this.timing.retryMs);
      return;
    }
    this.#watch();
  }

  /** The placing properties first: the stream answers one subscription at a time, and they make the clock live. */
  #subscribe(name: string): void {
    const group = (properties: readonly string[], onStatus: (status: LiveStatus) => void) =>
      this.#subscriptions.push(
        this.sources.subscribe(transportRequest(name, [...properties], CLOCK_INTERVAL_MS), ({ property, value }) => this.#onValue(property, value), {
          onStatus: (status) => {
            if (status === 'offline' || status === 'connecting') for (const property of properties) this.#heardSinceUp.delete(property);
            onStatus(status);
          },
          onError: (error) => this.#problem(error),
        }),
      );
    group(PLACING, (status) => {
      this.#linkStatus = status;
      this.#changed();
    });
    group(DESCRIBING, () => this.#changed());
  }

  #onValue(property: string, value: unknown): void {
    const now = performance.now();
    this.#heardSinceUp.add(property);
    switch (property) {
      case PROPERTY.time:
        if (typeof value !== 'number') return;
        if (value !== this.#playhead?.time) this.#movedAt = now;
        this.#playhead = { time: value, at: now };
        break;
      // A silent stream is probed, and the probe sends every value again: only a change of play state moves the
      // anchor or counts as the playhead moving, or a stuck render would look live again at every probe.
      case PROPERTY.playing:
        if ((value === true) === this.#playing) break;
        this.#reanchor();
        this.#playing = value === true;
        this.#movedAt = now;
        break;
      case PROPERTY.playmode: {
        const playmode = typeof value === 'number' ? (PLAYMODE_STATES[value] ?? 'Unknown') : 'Unknown';
        if (playmode === this.#playmode) break;
        this.#reanchor();
        this.#playmode = playmode;
        break;
      }
      case PROPERTY.trackUid:
        // The same track sent again by a probe is not a new track: its annotations are re-read on their own timer.
        if (String(value) === this.#values.trackUid) break;
        this.#values.trackUid = String(value);
        void this.#readTimeline(String(value));
        break;
      case PROPERTY.trackName:
        this.#values.trackName = String(value);
        break;
      case PROPERTY.timecode:
        this.#values.timecode = String(value);
        break;
      default:
        this.#level(property, value);
    }
    this.#watchFrozen();
    this.#changed();
  }

  /** Before a change of play state: the extrapolation restarts from where the clock shows the playhead now. */
  #reanchor(): void {
    const reading = this.#reading;
    if (!reading) return;
    const now = performance.now();
    this.#playhead = { time: this.#timeAt(reading, this.#timelines.get(this.#values.trackUid ?? ''), now), at: now };
  }

  /** A clock that is not live shows where the playhead was last seen, never where it might be by now. */
  #timeAt(reading: PlayerReading, timeline: TrackTimeline | undefined, now: number): number {
    return this.#status === 'online' ? playheadAt(reading, timeline, now) : reading.time;
  }

  #level(property: string, value: unknown): void {
    if (property === PROPERTY.engaged && typeof value === 'boolean') this.#values.engaged = value;
    if (property === PROPERTY.volume && typeof value === 'number') this.#values.volume = value;
    if (property === PROPERTY.brightness && typeof value === 'number') this.#values.brightness = value;
  }

  /** A playhead that stands still while playing past the bound is a stuck render or a stream gone quiet: stale. */
  #watchFrozen(): void {
    const now = performance.now();
    this.#frozen = this.#playing && now - this.#movedAt >= this.timing.frozenAfterMs;
    if (!this.#playing || this.#frozen || this.#frozenTimer) return;
    this.#frozenTimer = setTimeout(() => {
      this.#frozenTimer = undefined;
      this.#watchFrozen();
      if (this.#frozen) this.#changed();
    }, this.#movedAt + this.timing.frozenAfterMs - now);
  }

  /** The track's length and annotations, read when the track changes and again every few seconds. */
  async #readTimeline(trackUid: string): Promise<void> {
    try {
      const track = await this.#track(trackUid);
      const { annotations } = await this.sources.annotations({ uid: trackUid });
      const timeline = timelineOf(track, annotations);
      const before = this.#timelines.get(trackUid);
      this.#timelines.set(trackUid, timeline);
      if (JSON.stringify(before) !== JSON.stringify(timeline)) this.#changed();
    } catch (error) {
      this.#problem(error);
    }
  }

  async #track(uid: string): Promise<{ uid: string; name: string; length: number }> {
    const inSetList = this.#transport.setList.tracks.find((track) => track.uid === uid);
    if (inSetList) return inSetList;
    const track = (await this.sources.tracks()).find((candidate) => candidate.uid === uid);
    if (!track) throw new StagelinkError(`The track ${shown(uid)} that transport ${shown(this.#transport.name)} plays is not in the track list.`);
    return track;
  }

  #scheduleRefresh(): void {
    this.#nextRead = setTimeout(() => {
      const uid = this.#values.trackUid;
      void (uid === undefined ? Promise.resolve() : this.#readTimeline(uid)).finally(() => !this.#disposed && this.#scheduleRefresh());
    }, this.timing.annotationsEveryMs);
  }

  #snapshot(): ShowClockSnapshot | undefined {
    const transport = this.#transport;
    const reading = this.#reading;
    if (!reading) return undefined;
    const status = this.#status;
    const trackUid = this.#values.trackUid ?? transport.currentTrack.uid;
    const timeline = this.#timelines.get(trackUid);
    const time = this.#timeAt(reading, timeline, performance.now());
    const { engaged = transport.engaged, volume = transport.volume, brightness = transport.brightness, timecode } = this.#values;
    return {
      transport: { ...this.#target },
      status,
      playmode: reading.playmode,
      playing: reading.playing,
      track: { uid: trackUid, name: this.#values.trackName ?? timeline?.name ?? transport.currentTrack.name, length: timeline?.length ?? 0 },
      ...positionIn(timeline, time, reading.playmode),
      volume,
      brightness,
      engaged,
      // Shown once sent over the current link: a timecode status from before a drop may be long out of date.
      ...(timecode !== undefined && this.#heardSinceUp.has(PROPERTY.timecode) && { timecode: { status: timecode } }),
    };
  }

  #changed(): void {
    if (this.#disposed) return;
    const snapshot = this.#snapshot();
    // A watcher's callback may close another watcher: one closed on the way is not called again.
    for (const watcher of [...this.#watchers]) {
      this.#tellStatus(watcher);
      if (snapshot) this.#tell.change(watcher, snapshot);
    }
  }

  #tellStatus(watcher: Watcher): void {
    if (this.#watchers.has(watcher)) this.#tell.status(watcher, this.#status);
  }

  #problem(error: unknown): void {
    this.#tell.problem(error, this.#watchers);
  }
}
