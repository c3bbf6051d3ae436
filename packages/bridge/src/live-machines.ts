import {
  ALERT_AVERAGE_WINDOW,
  classifyFps,
  livePresets,
  reasonOf,
  RollingAverage,
  type DirectorChange,
  type HealthEntry,
  type LinkStatus,
  type LiveStatus,
  type LiveSubscription,
  type Machine,
  type MediaServer,
  type SessionInfo,
} from '@stagelink/core';
import { FpsThrottle, type FpsPayload } from './fps-throttle.js';
import type { BridgeLog } from './log.js';
import type { SessionStateStream } from './session-state.js';
import { STALE_REASONS } from './stale-reasons.js';

/** The part of the FPS period a value must wait for after the last one, on MQTT and OSC alike (see watch). */
export const FPS_JITTER_SHARE = 0.9;

export interface LiveMachinesOptions {
  fpsHz: number;
  fpsDeadband: number;
  fpsTarget: number;
  followDirector: boolean;
}

/** One machine's live values: FPS (local preset on the director, remote on the others) and failover takeover. */
interface MachineWatch {
  machine: Machine;
  asDirector: boolean;
  fps?: LiveSubscription;
  takeover?: LiveSubscription;
  average: RollingAverage;
  throttle: FpsThrottle;
}

/**
 * Who directs the session and the machines' live values: each machine's FPS (its local monitor while it directs, a
 * remote monitor on the director otherwise, asked again when the director changes) and failover takeover, and the
 * director itself (followed, read from the session, or a solo machine named by its health). Values and stale marks
 * go to the stream.
 */
export class LiveMachines {
  readonly #machines = new Map<string, MachineWatch>();
  /** Live values whose subscription said `stale`, until it says `online` again (for the log). */
  readonly #stopped = new Set<string>();
  readonly #refused = new Map<string, string>();
  #director: string | undefined;
  /** The last session answer listed no director: the machine answering runs alone. */
  #solo = false;
  #closed = false;

  constructor(
    private readonly mediaServer: MediaServer,
    private readonly stream: SessionStateStream,
    private readonly options: LiveMachinesOptions,
    private readonly pollSoon: () => void,
    private readonly log: BridgeLog,
  ) {}

  /** The machines watched, by hostname. */
  get hostnames(): string[] {
    return [...this.#machines.keys()];
  }

  /** The followed director changed (core's `director` event). */
  directorChanged(change: DirectorChange): void {
    this.log.info('director', { hostname: change.hostname, url: change.url, ...(change.previous ? { previous: change.previous } : {}) });
    // A solo machine is found under the address it was reached at: its hostname comes with the next health answer.
    if (change.solo) return this.pollSoon();
    this.#setDirector(change.hostname, change.url);
  }

  /** A session answer: who directs it, or that one machine runs alone. */
  session(session: SessionInfo): void {
    // As core's director query reads it: a session without a director is its one machine, named by health().
    this.#solo = session.isRunningSolo || !session.director;
    if (this.#solo) return;
    if (this.options.followDirector) {
      const director = this.mediaServer.director;
      if (director) this.#setDirector(director.hostname, director.url);
      return;
    }
    this.#setDirector(session.director?.hostname ?? null, this.mediaServer.origin);
  }

  /**
   * A health answer. A solo machine directs itself: named by the hostname it reports (`MEDIASERVER01`), not the
   * address the bridge reached it at, and its FPS is its local monitor (a shipping build lists no remote node for itself).
   */
  health(entries: HealthEntry[]): void {
    if (!this.#solo) return;
    const hostname = entries.find((entry) => this.#machines.has(entry.machine?.hostname))?.machine.hostname;
    if (hostname !== undefined) this.#setDirector(hostname, this.mediaServer.origin);
  }

  watch(machine: Machine): void {
    if (typeof machine?.hostname !== 'string' || machine.hostname === '' || this.#machines.has(machine.hostname) || this.#closed) return;
    const { hostname } = machine;
    // The director is asked for values no faster than --fps-hz (see #subscribeFps): the throttle is the guard
    // against one that sends faster. At exactly the asked interval it would hold every value that arrives a little
    // early behind the previous one (network and event-loop jitter) until a timer fires, which on a loaded machine
    // is most of them: a tenth of the period is left for jitter. A runaway director still gets at most 1.1x.
    const periodMs = (1000 / this.options.fpsHz) * FPS_JITTER_SHARE;
    const watch: MachineWatch = {
      machine,
      asDirector: false,
      average: new RollingAverage(ALERT_AVERAGE_WINDOW),
      throttle: new FpsThrottle(periodMs, this.options.fpsDeadband, (payload) => this.#fps(hostname, payload)),
    };
    this.#machines.set(hostname, watch);
    this.#subscribeFps(watch);
    this.#subscribeTakeover(watch);
  }

  /** A machine that left the session: its live values are dropped. */
  left(hostname: string): void {
    const watch = this.#machines.get(hostname);
    if (watch) this.#unwatch(watch);
    this.#machines.delete(hostname);
    this.#stopped.delete(`fps ${hostname}`);
    this.#stopped.delete(`takeover ${hostname}`);
  }

  /** The stream dropped: every live value is marked stale at once, and averages start again when it is back. */
  linkStatus(status: LinkStatus): void {
    this.log.info('live update', { status });
    this.stream.state({ what: 'bridge', part: 'link', value: { status } });
    if (status === 'online') return;
    for (const watch of this.#machines.values()) {
      watch.average.reset();
      watch.throttle.markStale(STALE_REASONS.noLink);
      this.stream.markStale({ what: 'machine', which: watch.machine.hostname, part: 'takeover' }, STALE_REASONS.noLink);
    }
  }

  close(): void {
    this.#closed = true;
    for (const watch of this.#machines.values()) this.#unwatch(watch);
  }

  #fps(hostname: string, { stale, reason, ...value }: FpsPayload): void {
    this.stream.state({ what: 'machine', which: hostname, part: 'fps', value, ...(stale && reason ? { marks: { stale, reason } } : {}) });
  }

  #setDirector(hostname: string | null, url: string): void {
    this.stream.state({ what: 'director', part: 'director', value: { hostname, url } });
    if ((hostname ?? undefined) === this.#director) return;
    this.#director = hostname ?? undefined;
    // The director's own FPS is its local monitor; every other machine's is a remote monitor on the director.
    for (const watch of this.#machines.values()) {
      if (watch.asDirector !== (watch.machine.hostname === this.#director)) this.#subscribeFps(watch);
    }
  }

  #subscribeFps(watch: MachineWatch): void {
    watch.fps?.close();
    watch.average.reset();
    const { hostname } = watch.machine;
    watch.asDirector = hostname === this.#director;
    // Asked of the director no faster than published: never more values than the bridge passes on.
    const intervalMs = Math.max(100, Math.round(1000 / this.options.fpsHz));
    try {
      const preset = watch.asDirector ? livePresets.localFps() : livePresets.remoteFps(hostname);
      watch.fps = this.mediaServer.live.subscribe(
        { ...preset, updateFrequencyMs: intervalMs },
        ({ value }) => {
          if (typeof value !== 'number' || !Number.isFinite(value)) return;
          const average = watch.average.push(value);
          watch.throttle.offer({ value, average, alert: classifyFps(average, this.options.fpsTarget) });
        },
        {
          onError: (error) => this.#refusedBy(`fps ${hostname}`, error),
          onStatus: (status) =>
            this.#subscriptionStatus(`fps ${hostname}`, status, () => {
              // This machine's FPS stopped while the stream is up: its value alone is marked, its average starts again.
              watch.average.reset();
              watch.throttle.markStale(STALE_REASONS.valuesStopped);
            }),
        },
      );
    } catch (error) {
      this.#refusedBy(`fps ${hostname}`, error);
    }
  }

  #subscribeTakeover(watch: MachineWatch): void {
    const { hostname, uid } = watch.machine;
    const takeover = { what: 'machine', which: hostname, part: 'takeover' } as const;
    try {
      watch.takeover = this.mediaServer.live.subscribe(
        livePresets.failoverTakeover(uid),
        ({ value }) => {
          if (typeof value === 'boolean') this.stream.state({ ...takeover, value: { value } });
        },
        {
          onError: (error) => this.#refusedBy(`takeover ${hostname}`, error),
          onStatus: (status) => this.#subscriptionStatus(`takeover ${hostname}`, status, () => this.stream.markStale(takeover, STALE_REASONS.valuesStopped)),
        },
      );
    } catch (error) {
      this.#refusedBy(`takeover ${hostname}`, error);
    }
  }

  #unwatch(watch: MachineWatch): void {
    watch.fps?.close();
    watch.takeover?.close();
    watch.throttle.close();
  }

  /**
   * One subscription's own status: `stale` marks its value (the link's statuses are linkStatus's, for every value
   * at once); the next value clears the mark, as any value does.
   */
  #subscriptionStatus(what: string, status: LiveStatus, markStale: () => void): void {
    if (status === 'stale') {
      if (!this.#stopped.has(what)) this.log.warn('live value stopped', { what });
      this.#stopped.add(what);
      markStale();
    } else if (status === 'online' && this.#stopped.delete(what)) {
      this.log.info('live value back', { what });
    }
  }

  #refusedBy(what: string, error: unknown): void {
    const reason = reasonOf(error);
    if (this.#refused.get(what) === reason) return;
    this.#refused.set(what, reason);
    this.log.warn('live value refused', { what, reason });
  }
}
