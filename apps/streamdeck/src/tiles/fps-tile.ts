/**
 * The FPS key: the live FPS of the local machine or a named one, from the live-update stream, on the colour
 * of core's alert level for the rolling average against the target. NO LINK the moment the stream drops;
 * STALE when core reports the subscription stale (its values stopped while the stream stayed up, and asking
 * again brought none); NO DATA while connected without a value yet. It subscribes only while on screen.
 */
import {
  classifyFps,
  livePresets,
  type LiveRequest,
  type LiveStatus,
  type LiveSubscription,
  type LiveValue,
  type MediaServer,
  reasonOf,
  RollingAverage,
} from '@stagelink/core';
import { fpsFace } from '../render/fps-face.js';
import { noLinkFace, problemFace, setupFace, staleFace, waitingFace } from '../render/faces.js';
import { numberSetting, textSetting, type FpsKeySettings, type HostChoice } from '../settings.js';
import { hostLabel } from './host-binding.js';
import type { KeySurface, TileContext } from './tile.js';
import { TileBase } from './tile-base.js';
import { RepeatLimiter } from '../logging.js';

export class FpsTile extends TileBase<FpsKeySettings> {
  readonly #average = new RollingAverage();
  #subscription: LiveSubscription | undefined;
  /** What the subscription is for (client and machine): unchanged settings keep it. */
  #watching: string | undefined;
  #machine: string | undefined;
  #machineLabel = 'LOCAL';
  #hostText = '';
  /** A machine that sends something else than numbers sends it with every value: the log says so once a minute. */
  readonly #notANumber = new RepeatLimiter();
  #target: number | undefined;
  #latest: number | undefined;

  constructor(surface: KeySurface, context: TileContext) {
    super((svg) => surface.setImage(svg), context);
  }

  protected get subject(): string {
    return `FPS key ${this.#machineLabel}`;
  }

  configure(settings: FpsKeySettings, host: HostChoice): void {
    if (this.disposed) return;
    const machine = textSetting(settings.machine);
    const target = numberSetting(settings.target);
    this.#target = target !== undefined && target > 0 ? target : undefined;
    this.#machine = machine;
    this.#machineLabel = machine ?? 'LOCAL';

    let request: LiveRequest;
    try {
      request = machine ? livePresets.remoteFps(machine) : livePresets.localFps();
    } catch (error) {
      this.setUp(reasonOf(error), setupFace('FPS'));
      return;
    }
    const binding = this.bindHost(host, { setUp: setupFace('FPS'), waiting: waitingFace('FPS', 'loading') });
    if (!binding) return;
    this.reasons.clear();
    this.#hostText = hostLabel(binding.lease.origin);
    const watching = `${binding.lease.key}\u0000${machine ?? ''}`;
    if (watching !== this.#watching || !this.#subscription) {
      this.stop();
      this.#watching = watching;
      if (this.context.visible) this.#subscribe(binding.lease.server, request);
    }
    this.#render(this.#subscription?.status ?? 'connecting');
  }

  protected override stop(): void {
    this.#subscription?.close();
    this.#subscription = undefined;
    this.#watching = undefined;
    this.#average.reset();
    this.#latest = undefined;
    super.stop();
  }

  #subscribe(server: MediaServer, request: LiveRequest): void {
    // A director monitors the other machines of its session (r34 lists only those in remoteNodes()): its own FPS
    // is its local monitor. Which machine directs is known once core has found it, at the latest when the
    // remote monitor is refused.
    const own = isDirector(server, this.#machine);
    try {
      this.#subscription = server.live.subscribe(own ? livePresets.localFps() : request, (value) => this.#onValue(value), {
        onStatus: (status) => this.#onStatus(status),
        onError: (error) => {
          if (!own && isDirector(server, this.#machine)) {
            this.#subscription?.close();
            this.#subscribe(server, request);
            return;
          }
          this.reasons.tell(`no FPS from ${this.#hostText} (check the machine name): ${error.message}`);
          this.#latest = undefined;
          this.presenter.show(problemFace(this.#machineLabel));
        },
      });
    } catch (error) {
      this.reasons.tell(reasonOf(error));
      this.presenter.show(problemFace(this.#machineLabel));
    }
  }

  #onValue({ value }: LiveValue): void {
    if (this.disposed) return;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.#notANumber.offer((leftOut) => {
        const more = leftOut > 0 ? ` (${leftOut} more since the last line)` : '';
        this.context.logger.warn(`FPS of ${this.#machineLabel} on ${this.#hostText} arrived as ${JSON.stringify(value)}, not a number${more}; said once a minute.`);
      });
      return;
    }
    this.#latest = value;
    this.#average.push(value);
    this.#render('online');
  }

  #onStatus(status: LiveStatus): void {
    if (this.disposed) return;
    if (status !== 'online') {
      // Old samples must not colour new ones after a reconnect or after the values stopped.
      this.#average.reset();
      this.#latest = undefined;
    }
    this.#render(status);
  }

  #render(status: LiveStatus): void {
    if (status === 'offline') {
      this.presenter.show(noLinkFace(this.#machineLabel));
      return;
    }
    if (status === 'stale') {
      this.presenter.show(staleFace(this.#machineLabel));
      return;
    }
    const average = this.#average.value;
    if (status === 'connecting' || this.#latest === undefined || average === undefined) {
      this.presenter.show(waitingFace(this.#machineLabel, status === 'connecting' ? 'connecting' : 'no data'));
      return;
    }
    this.presenter.show(
      fpsFace({
        machine: this.#machineLabel,
        fps: this.#latest,
        alert: this.#target === undefined ? 'none' : classifyFps(average, this.#target),
      }),
    );
  }
}

function isDirector(server: MediaServer, machine: string | undefined): boolean {
  const director = server.director?.hostname;
  return machine !== undefined && director !== undefined && director.toLowerCase() === machine.toLowerCase();
}
