import { LiveUpdateError, reasonOf, StagelinkError } from '../errors.js';
import type { Logger } from '../http/logger.js';
import { checkRef, shown } from '../media-server/input-checks.js';
import { multitransportMembers } from '../media-server/multitransport.js';
import type { Playmode } from '../media-server/playmode.js';
import type { Multitransport, Ref, Track, TrackAnnotations, Transport } from '../media-server/types.js';
import type { LiveClient, LiveStatus, LiveSubscription } from '../live/live-client.js';
import { transportRequest } from '../live/presets.js';
import { playheadAt, positionIn, timelineOf, type ClockPosition, type PlayerReading, type TrackTimeline } from './clock-math.js';

/** What one transport's clock shows now: where it is and what comes next, times in seconds. */
export interface ShowClockSnapshot extends ClockPosition {
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

/** `object.player.playMode.state` as the director numbers it. */
const PLAYMODE_STATES: readonly Playmode[] = ['Play', 'PlaySection', 'Loop', 'Stop'];

interface Watcher {
  onChange(snapshot: ShowClockSnapshot): void;
  options: WatchOptions;
  toldStatus?: ClockStatus;
}

/**
 * The show clocks of one client: one per transport, shared by every watcher of it, so twenty watchers cost the
 * director one live subscription group and one annotations read.
 */
export class ShowClocks {
  readonly #clocks = new Map<string, TransportClock>();

  constructor(
    private readonly sources: ClockSources,
    private readonly timing: ClockTiming,
    private readonly logger: Logger,
  ) {}

  watch(ref: Ref, onChange: (snapshot: ShowClockSnapshot) => void, options: WatchOptions = {}): TransportWatch {
    const { uid, name } = checkRef(ref, 'transport');
    const key = uid !== undefined ? `uid:${uid}` : `name:${name}`;
    let clock = this.#clocks.get(key);
    if (!clock) {
      clock = new TransportClock({ uid, name }, this.sources, this.timing, this.logger, () => this.#clocks.delete(key));
      this.#clocks.set(key, clock);
    }
    return clock.add({ onChange, options });
  }

  close(): void {
    for (const clock of [...this.#clocks.values()]) clock.dispose();
  }
}

/** One transport's clock: the live player properties, the track's timeline, and the watchers told of changes. */
class TransportClock {
  readonly #watchers = new Set<Watcher>();
  readonly #timelines = new Map<string, TrackTimeline>();
  #transport: Transport | undefined;
  #subscription: LiveSubscription | undefined;
  #linkStatus: LiveStatus = 'offline';
  /** The playhead as last sent, and when; undefined until the director has sent it. */
  #playhead: { time: number; at: number } | undefined;
  /**
   * The player's properties the director has sent since the stream last came up. A stream that dropped and came
   * back is online before the director answers the new subscriptions (one at a time) with their values: until the
   * playhead and the play state have both come, the clock holds what it saw before the drop, which the show may have
   * left long since (stopped, moved on).
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
  /** Problems already told, so a director that stays away is reported once, not at every retry. */
  readonly #told = new Set<string>();

  constructor(
    private readonly ref: Ref,
    private readonly sources: ClockSources,
    private readonly timing: ClockTiming,
    private readonly logger: Logger,
    private readonly onDisposed: () => void,
  ) {
    void this.#start();
  }

  add(watcher: Watcher): TransportWatch {
    this.#watchers.add(watcher);
    queueMicrotask(() => this.#tellStatus(watcher));
    const current = (): ShowClockSnapshot | undefined => (this.#watchers.has(watcher) ? this.#snapshot() : undefined);
    return {
      get current() {
        return current();
      },
      close: () => {
        if (!this.#watchers.delete(watcher)) return;
        if (this.#watchers.size === 0) this.dispose();
      },
    };
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#watchers.clear();
    this.#subscription?.close();
    clearTimeout(this.#frozenTimer);
    clearTimeout(this.#nextRead);
    this.onDisposed();
  }

  get #status(): ClockStatus {
    if (this.#linkStatus !== 'online') return this.#linkStatus === 'stale' ? 'stale' : 'offline';
    // Not live until the director has told the playhead and the play state over this link (see #heardSinceUp).
    if (!this.#playhead || !this.#heardSinceUp.has(PROPERTY.time) || !this.#heardSinceUp.has(PROPERTY.playing)) return 'offline';
    return this.#frozen ? 'stale' : 'online';
  }

  get #reading(): PlayerReading | undefined {
    return this.#playhead && { ...this.#playhead, playing: this.#playing, playmode: this.#playmode };
  }

  /**
   * Finds the transport (a multitransport's clock is its first member's), then watches its live object. Either step
   * failing is told once and tried again: a transport the server lacks, or whose name the live stream cannot
   * address (`Stage (L)`), may be added or renamed in the project meanwhile.
   */
  async #start(): Promise<void> {
    try {
      this.#transport = await this.#find();
      if (this.#disposed) return;
      this.#subscribe(this.#transport.name);
    } catch (error) {
      this.#problem(error);
      if (!this.#disposed) this.#nextRead = setTimeout(() => void this.#start(), this.timing.retryMs);
      return;
    }
    this.#told.clear();
    this.#scheduleRefresh();
  }

  async #find(): Promise<Transport> {
    const { transports, multitransports } = await this.sources.transports();
    const matches = (candidate: { uid: string; name: string }) =>
      (this.ref.uid === undefined || candidate.uid === this.ref.uid) && (this.ref.name === undefined || candidate.name === this.ref.name);
    const transport = transports.find(matches);
    if (transport) return transport;
    const multi = multitransports.find(matches);
    const first = multi && multitransportMembers(transports, multi)[0];
    if (first) return first;
    throw new StagelinkError(`There is no transport ${shown(this.ref.name ?? this.ref.uid)} on the server, so its clock cannot be shown: check the name.`);
  }

  #subscribe(name: string): void {
    this.#subscription = this.sources.subscribe(
      transportRequest(name, Object.values(PROPERTY), CLOCK_INTERVAL_MS),
      ({ property, value }) => this.#onValue(property, value),
      {
        onStatus: (status) => {
          this.#linkStatus = status;
          if (status === 'offline' || status === 'connecting') this.#heardSinceUp.clear();
          this.#changed();
        },
        onError: (error) => this.#problem(error),
      },
    );
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
    const inSetList = this.#transport?.setList.tracks.find((track) => track.uid === uid);
    if (inSetList) return inSetList;
    const track = (await this.sources.tracks()).find((candidate) => candidate.uid === uid);
    if (!track) throw new StagelinkError(`The track ${shown(uid)} that transport ${shown(this.#transport?.name)} plays is not in the track list.`);
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
    if (!transport || !reading) return undefined;
    const status = this.#status;
    const trackUid = this.#values.trackUid ?? transport.currentTrack.uid;
    const timeline = this.#timelines.get(trackUid);
    const time = this.#timeAt(reading, timeline, performance.now());
    const { engaged = transport.engaged, volume = transport.volume, brightness = transport.brightness, timecode } = this.#values;
    return {
      transport: { uid: transport.uid, name: transport.name },
      status,
      playmode: reading.playmode,
      playing: reading.playing,
      track: { uid: trackUid, name: this.#values.trackName ?? timeline?.name ?? transport.currentTrack.name, length: timeline?.length ?? 0 },
      ...positionIn(timeline, time, reading.playmode),
      volume,
      brightness,
      engaged,
      ...(timecode !== undefined && { timecode: { status: timecode } }),
    };
  }

  #changed(): void {
    const snapshot = this.#snapshot();
    for (const watcher of [...this.#watchers]) {
      this.#tellStatus(watcher);
      if (snapshot) this.#safely(() => watcher.onChange(snapshot));
    }
  }

  #tellStatus(watcher: Watcher): void {
    const status = this.#status;
    if (!this.#watchers.has(watcher) || watcher.toldStatus === status) return;
    watcher.toldStatus = status;
    this.#safely(() => watcher.options.onStatus?.(status));
  }

  #problem(error: unknown): void {
    const problem = error instanceof StagelinkError ? error : new StagelinkError(reasonOf(error), undefined, { cause: error });
    if (this.#told.has(problem.message)) return;
    this.#told.add(problem.message);
    const transport = shown(this.ref.name ?? this.ref.uid);
    this.logger.warn(`show clock of ${transport}: ${problem.message}`, { code: 'SHOW_CLOCK_PROBLEM', facts: { transport, reason: problem.message }, error: problem });
    for (const watcher of [...this.#watchers]) this.#safely(() => watcher.options.onError?.(problem));
  }

  /** A watcher that throws must not stop the others or the clock. */
  #safely(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.logger.warn(new LiveUpdateError(`A show clock watcher threw: ${reasonOf(error)}`).message, { code: 'SHOW_CLOCK_WATCHER_THREW', facts: { reason: reasonOf(error) }, error });
    }
  }
}
