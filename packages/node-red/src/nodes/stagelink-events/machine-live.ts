import { classifyFps, livePresets, machineFps, RollingAverage, type FpsAlert, type LiveRequest, type LiveStatus, type LiveSubscription, type LiveUpdateError, type MediaServer, type SessionMachine } from '@stagelink/core';

/** The live values an events node watches on each machine. */
export type LiveWatch = 'fps' | 'takeover';

export interface MachineLiveHandlers {
  /** A machine's FPS class, judged once its rolling average holds a full window of samples. */
  fps(hostname: string, alert: FpsAlert, average: number): void;
  takeover(hostname: string, takenOver: boolean): void;
  /**
   * `true` when a value's updates stopped while the stream stayed up (core asked again and none came), `false`
   * when the stream is up and nothing says it stopped; a stream that dropped is the connection's, not this.
   */
  stale(hostname: string, watching: LiveWatch, stale: boolean): void;
  /** A value got through: a live problem, if there was one, is over. */
  value(): void;
  problem(error: LiveUpdateError): void;
}

/** One machine's live values on the shared stream. */
interface MachineWatch {
  machine: SessionMachine;
  /** What the FPS is read from: core's monitor for the machine on the director of the moment. */
  fpsRequest: LiveRequest;
  average: RollingAverage;
  /** The values of this machine whose updates stopped. */
  stale: Set<LiveWatch>;
  fps?: LiveSubscription;
  takeover?: LiveSubscription;
}

/**
 * The FPS and failover-takeover values of the machines an events node watches, on the config node's one live
 * socket. Follows the session as the polls report it: new machines are watched, gone ones released, and FPS
 * subscriptions are remade when the director role moves.
 */
export class MachineLive {
  readonly #watches = new Map<string, MachineWatch>();

  constructor(
    private readonly client: MediaServer,
    private readonly settings: { fps: boolean; takeover: boolean; fpsTarget: number; fpsWindow: number },
    private readonly handlers: MachineLiveHandlers,
  ) {}

  /** Watches exactly `machines`; `director` is the hostname of the session's director. */
  follow(machines: readonly SessionMachine[], director: string | undefined): void {
    const wanted = new Set(machines.map((machine) => machine.hostname));
    for (const [hostname, watch] of this.#watches) {
      if (!wanted.has(hostname)) this.#release(hostname, watch);
    }
    for (const machine of machines) {
      const fpsRequest = machineFps(machine.hostname, director);
      const watch = this.#watches.get(machine.hostname) ?? this.#watch(machine, fpsRequest);
      if (watch.fpsRequest.object !== fpsRequest.object) {
        watch.fpsRequest = fpsRequest;
        this.#subscribeFps(watch);
      }
    }
  }

  /** The stream dropped: samples from before must not mix with those after it. */
  resetAverages(): void {
    for (const watch of this.#watches.values()) watch.average.reset();
  }

  get size(): number {
    return this.#watches.size;
  }

  /** The machines one of whose watched values stopped coming (its FPS, its takeover). */
  get staleMachines(): string[] {
    return [...this.#watches.values()].filter((watch) => watch.stale.size > 0).map((watch) => watch.machine.hostname);
  }

  close(): void {
    for (const [hostname, watch] of this.#watches) this.#release(hostname, watch);
  }

  #watch(machine: SessionMachine, fpsRequest: LiveRequest): MachineWatch {
    const watch: MachineWatch = { machine, fpsRequest, average: new RollingAverage(this.settings.fpsWindow), stale: new Set() };
    this.#watches.set(machine.hostname, watch);
    this.#subscribeFps(watch);
    if (this.settings.takeover) {
      watch.takeover = this.#subscribe(livePresets.failoverTakeover(machine.uid), watch, 'takeover', (value) => {
        if (typeof value === 'boolean') this.handlers.takeover(machine.hostname, value);
      });
    }
    return watch;
  }

  #subscribeFps(watch: MachineWatch): void {
    if (!this.settings.fps) return;
    watch.fps?.close();
    watch.stale.delete('fps');
    watch.average.reset();
    const { hostname } = watch.machine;
    watch.fps = this.#subscribe(watch.fpsRequest, watch, 'fps', (value) => {
      if (typeof value !== 'number' || !Number.isFinite(value)) return;
      const average = watch.average.push(value);
      // The API documents advise averaging before alerting, so one slow frame raises no alarm.
      if (watch.average.count < this.settings.fpsWindow) return;
      this.handlers.fps(hostname, classifyFps(average, this.settings.fpsTarget), average);
    });
  }

  #subscribe(request: LiveRequest, watch: MachineWatch, watching: LiveWatch, onValue: (value: unknown) => void): LiveSubscription {
    const onStatus = (status: LiveStatus): void => {
      if (status !== 'online' && status !== 'stale') return;
      if (status === 'stale') watch.stale.add(watching);
      else watch.stale.delete(watching);
      this.handlers.stale(watch.machine.hostname, watching, status === 'stale');
    };
    return this.client.live.subscribe(
      request,
      ({ value }) => {
        this.handlers.value();
        onValue(value);
      },
      { onStatus, onError: (error) => this.handlers.problem(error) },
    );
  }

  #release(hostname: string, watch: MachineWatch): void {
    watch.fps?.close();
    watch.takeover?.close();
    this.#watches.delete(hostname);
  }
}
