import { formatClock, isUnreachable, Throttle, type ClockStatus, type LinkStatus, type MediaServer, type Ref, type ShowClockSnapshot, type StagelinkError, type TransportWatch } from '@stagelink/core';
import type { NodeMessage } from '../../shared/node-red.js';
import type { StatusLine } from '../../shared/status.js';
import { say } from '../../shared/words.js';
import { ClockEvents, shownStatus, type ShownStatus } from './clock-events.js';
import type { ClockSettings } from './clock-settings.js';

/** Where a feed's messages and troubles go: the node's outputs, its status line and its outage report. */
export interface FeedOutlets {
  snapshot(msg: NodeMessage): void;
  event(msg: NodeMessage): void;
  status: StatusLine;
  problem(error: StagelinkError): void;
  recovered(): void;
}

/**
 * One transport's clock as a node gives it: the snapshot on the first output at most `rate` times a second (only
 * when it changed), the events on the second at once, the status line. Core's watch does the watching; this
 * paces and words it. `close()` releases the watch, its timer and its listener.
 */
export class ClockFeed {
  readonly #client: MediaServer;
  readonly #watch: TransportWatch;
  readonly #throttle: Throttle<void>;
  readonly #events: ClockEvents;
  #linkSeenDown = false;
  readonly #onLink = (link: LinkStatus): void => {
    // Down once tried stays down until it is up: a retry's `connecting` is not a new start.
    if (link === 'offline') this.#linkSeenDown = true;
    if (link === 'online') this.#linkSeenDown = false;
    this.#statusChanged();
  };
  #clockStatus: ClockStatus = 'offline';
  #shown: ShownStatus | undefined;
  #seen = false;
  #lastSent: string | undefined;
  #lastText: string | undefined;
  #closed = false;

  constructor(
    client: MediaServer,
    readonly ref: Ref,
    settings: ClockSettings,
    private readonly outlets: FeedOutlets,
  ) {
    this.#client = client;
    this.#events = new ClockEvents(settings.thresholds);
    this.#throttle = new Throttle(() => this.#sendSnapshot(), 1000 / settings.rate);
    client.live.on('status', this.#onLink);
    this.#watch = client.transport.watch(ref, (snapshot) => this.#changed(snapshot), {
      onStatus: (status) => {
        this.#clockStatus = status;
        this.#statusChanged();
      },
      onError: (error) => {
        if (!this.#seen) outlets.status.failed(error);
        outlets.problem(error);
        // A server that cannot be reached to find the transport is as offline as a link that dropped.
        if (isUnreachable(error)) this.#onLink('offline');
      },
    });
    this.#statusChanged();
  }

  /** The transport as topics name it: its name once the clock knows it, else as the node was given it. */
  get name(): string {
    return this.#watch.current?.transport.name ?? this.ref.name ?? this.ref.uid ?? '';
  }

  get current(): ShowClockSnapshot | undefined {
    return this.#watch.current;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#throttle.close();
    this.#watch.close();
    this.#client.live.off('status', this.#onLink);
  }

  #changed(snapshot: ShowClockSnapshot): void {
    if (this.#closed) return;
    this.#seen = true;
    for (const { event, payload } of this.#events.see(snapshot, performance.now())) this.outlets.event({ topic: snapshot.transport.name, event, payload });
    if (snapshot.status === 'online') this.#showLive(snapshot);
    this.#throttle.push();
  }

  /** The newest snapshot, read when it goes out (it moves on between updates), unless it says what the last did. */
  #sendSnapshot(): void {
    const current = this.#watch.current;
    if (!current) return;
    const json = JSON.stringify(current);
    if (json === this.#lastSent) return;
    this.#lastSent = json;
    this.outlets.snapshot({ topic: current.transport.name, payload: current });
  }

  #statusChanged(): void {
    if (this.#closed) return;
    const shown = shownStatus(this.#clockStatus, this.#linkSeenDown, this.#seen);
    if (shown === this.#shown) return;
    const previous = this.#shown;
    this.#shown = shown;
    this.#lastText = undefined;
    const { status } = this.outlets;
    if (shown === 'connecting') status.connecting();
    else if (shown === 'offline') status.offline();
    else if (shown === 'stale') status.stale();
    else {
      this.outlets.recovered();
      const current = this.#watch.current;
      if (current) this.#showLive(current);
    }
    if (shown === 'connecting') return;
    const from = previous === undefined || previous === 'connecting' ? null : previous;
    this.outlets.event({ topic: this.name, event: 'status', payload: { value: shown, previous: from, transport: this.name } });
    // The snapshot that says so goes out too, paced as any other.
    this.#throttle.push();
  }

  #showLive(snapshot: ShowClockSnapshot): void {
    if (this.#shown !== 'online') return;
    const text = liveText(snapshot);
    if (text === this.#lastText) return;
    this.#lastText = text;
    this.outlets.status.show({ fill: 'green', shape: 'ring', text });
  }
}

/**
 * What is left, in 20 characters read at a glance: "▶ −0:12 · section 2" while the transport plays, "■ −4:05 · track"
 * while it stands; the playhead's timecode ("▶ 00:00:30:00") before the track is known. The minus says a
 * countdown, as a media server's own remaining time does.
 */
export function liveText(snapshot: ShowClockSnapshot): string {
  const { section, track, trackRemaining, playing } = snapshot;
  const state = playing ? '▶' : '■';
  if (section) return say('status.clockSection', { state, left: left(section.remaining), index: section.index });
  if (track.length > 0) return say('status.clockTrack', { state, left: left(trackRemaining) });
  return say('status.clockAt', { state, time: formatClock(snapshot.time) });
}

/** A countdown ("0:12", "4:05"): each second shown until it has passed. */
function left(seconds: number): string {
  return formatClock(seconds, { mode: 'countdown' });
}
