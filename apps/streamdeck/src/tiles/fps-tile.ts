/**
 * The FPS key: the live FPS of the local machine or a named one, from the live-update stream, on the colour
 * of core's alert level for the rolling average against the target. NO LINK the moment the stream drops;
 * STALE when core reports the subscription stale (its values stopped while the stream stayed up, and asking
 * again brought none); NO DATA while connected without a value yet. It subscribes only while on screen, and
 * watches the monitor core names for the machine on the director of the moment: when the director role moves to
 * or from the machine, the same machine's FPS comes from the other monitor.
 */
import {
  classifyFps,
  machineFps,
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
  /** The monitor the subscription reads (its object): a new director may need another one for the same machine. */
  #monitor: string | undefined;
  /** Stops listening for director moves on the server the subscription is on. */
  #stopFollowingDirector: (() => void) | undefined;
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

    try {
      machineFps(machine, undefined); // refuses a name that is no hostname
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
      if (this.context.visible) this.#watch(binding.lease.server);
    }
    this.#render(this.#subscription?.status ?? 'connecting');
  }

  protected override stop(): void {
    this.#stopFollowingDirector?.();
    this.#stopFollowingDirector = undefined;
    this.#subscription?.close();
    this.#subscription = undefined;
    this.#monitor = undefined;
    this.#watching = undefined;
    this.#average.reset();
    this.#latest = undefined;
    super.stop();
  }

  /** Subscribes, and subscribes again to the other monitor whenever the director moves to or from the machine. */
  #watch(server: MediaServer): void {
    const onDirector = (): void => {
      this.#resubscribeIfMoved(server);
    };
    server.on('director', onDirector);
    this.#stopFollowingDirector = () => server.off('director', onDirector);
    this.#subscribe(server);
  }

  /** The director now needs another monitor for the machine: the old one reads another machine, or nothing. */
  #resubscribeIfMoved(server: MediaServer): boolean {
    if (this.disposed || machineFps(this.#machine, server.director?.hostname).object === this.#monitor) return false;
    this.#subscription?.close();
    this.#average.reset();
    this.#latest = undefined;
    this.#subscribe(server);
    this.#render(this.#subscription?.status ?? 'connecting');
    return true;
  }

  #subscribe(server: MediaServer): void {
    // Which machine directs is known once core has found it, before the stream connects; a remote monitor the
    // director refuses can also be the first sign that the machine is the director now.
    const request = machineFps(this.#machine, server.director?.hostname);
    this.#monitor = request.object;
    try {
      this.#subscription = server.live.subscribe(request, (value) => this.#onValue(value), {
        onStatus: (status) => this.#onStatus(status),
        onError: (error) => {
          if (this.#resubscribeIfMoved(server)) return;
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
