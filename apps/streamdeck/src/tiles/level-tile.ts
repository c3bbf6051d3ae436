/**
 * The level dial: turning it changes the volume or brightness of a transport, a step per tick, with ticks
 * coalesced so a fast turn sends few requests; the touch strip shows the value (OFFLINE while the link is
 * down). The current value comes from the shared transport poll; pressing the dial or touching the strip
 * polls at once. A change goes through the live stream where the server offers the property (smooth, no
 * request per step), else over REST; the live path falling through on any doubt is LiveLevelWriter's job.
 */
import { livePresets, reasonOf } from '@stagelink/core';
import { levelFeedback, type LevelProperty, type LevelView } from '../render/level-feedback.js';
import { numberSetting, textSetting, type HostChoice, type LevelDialSettings } from '../settings.js';
import { FramePresenter } from '../state/frame-presenter.js';
import { LevelChanger } from '../state/level-changer.js';
import { LiveLevelWriter } from '../state/live-level-writer.js';
import { isLinkDown } from '../state/link.js';
import type { ServerLease, TransportList } from '../state/server-pool.js';
import type { PollState } from '../state/shared-poll.js';
import { asTransportList, levelSource } from '../state/transport-activity.js';
import { HostBinding, hostProblem } from './host-binding.js';
import type { DialSurface, Tile, TileContext } from './tile.js';

export const DEFAULT_LEVEL_STEP = 0.01;

interface LevelTarget {
  property: LevelProperty;
  transport: string;
  step: number;
}

export class LevelTile implements Tile<LevelDialSettings> {
  readonly #presenter: FramePresenter;
  readonly #binding: HostBinding;
  #target: LevelTarget | undefined;
  #changer: LevelChanger | undefined;
  #liveWriter: LiveLevelWriter | undefined;
  #stopWatching: (() => void) | undefined;
  #linkDown = false;
  #disposed = false;

  constructor(
    private readonly surface: DialSurface,
    private readonly context: TileContext,
  ) {
    this.#presenter = new FramePresenter((json) => surface.setFeedback(JSON.parse(json) as Record<string, unknown>));
    this.#binding = new HostBinding(context.pool);
    if (context.visible) this.#presenter.appear();
  }

  configure(settings: LevelDialSettings, host: HostChoice): void {
    if (this.#disposed) return;
    const target = readTarget(settings);
    if (typeof target === 'string') {
      this.#reset();
      this.#binding.release();
      this.#show({ kind: 'setup', message: target });
      return;
    }
    const binding = this.#binding.bind(host);
    if (binding.kind !== 'bound') {
      this.#reset();
      const problem = hostProblem(binding);
      this.#show(problem ? { kind: 'setup', message: problem } : { kind: 'waiting', ...target });
      return;
    }
    const same = !binding.changed && this.#target?.property === target.property && this.#target.transport === target.transport;
    this.#target = target;
    if (same && this.#changer) {
      this.#render(binding.lease.transports.state);
      return;
    }
    this.#reset();
    this.#target = target;
    this.#changer = this.#changerFor(binding.lease, target);
    if (this.context.visible) {
      this.#liveWriter = this.#liveWriterFor(binding.lease, target);
      this.#stopWatching = binding.lease.transports.watch((state) => this.#render(state));
    }
  }

  rotate(ticks: number): void {
    const target = this.#target;
    if (!Number.isFinite(ticks) || ticks === 0 || !target) return;
    if (!this.#changer || this.#linkDown || !this.#changer.turn(Math.trunc(ticks), target.step)) {
      // No value to start from: the dial cannot know where "three steps up" is.
      this.surface.showAlert();
      this.#binding.lease?.transports.refresh();
    }
  }

  press(): void {
    this.#binding.lease?.transports.refresh();
  }

  dispose(): void {
    this.#disposed = true;
    this.#reset();
    this.#binding.release();
    this.#presenter.dispose();
  }

  #changerFor(lease: ServerLease, target: LevelTarget): LevelChanger {
    const transport = { name: target.transport };
    return new LevelChanger({
      apply: async (value) => {
        if (await this.#liveWriter?.write(value)) return;
        await (target.property === 'volume'
          ? lease.server.transport.setVolume({ transport, volume: value })
          : lease.server.transport.setBrightness({ transport, brightness: value }));
      },
      onValue: (value) => this.#show({ kind: 'value', ...target, value }),
      onFailure: (error) => {
        this.context.logger.warn(`Setting ${target.property} of ${target.transport} on ${lease.origin} failed: ${reasonOf(error)}`);
        this.surface.showAlert();
        lease.transports.refresh();
      },
    });
  }

  #liveWriterFor(lease: ServerLease, target: LevelTarget): LiveLevelWriter | undefined {
    try {
      const request = target.property === 'volume' ? livePresets.transportVolume(target.transport) : livePresets.transportBrightness(target.transport);
      return new LiveLevelWriter(lease.server, request);
    } catch (error) {
      // REST still works; the live path is only the smoother one.
      this.context.logger.debug?.(`Level of ${target.transport} on ${lease.origin} goes over REST: ${reasonOf(error)}`);
      return undefined;
    }
  }

  #render(state: PollState<TransportList>): void {
    const target = this.#target;
    const changer = this.#changer;
    if (this.#disposed || !target || !changer) return;
    this.#linkDown = state.status === 'offline' && isLinkDown(state.error);
    if (state.status !== 'online') {
      changer.forget();
      this.#show(this.#linkDown ? { kind: 'offline', ...target } : { kind: 'waiting', ...target });
      return;
    }
    const list = asTransportList(state.value);
    const source = list ? levelSource(list, target.transport) : undefined;
    const value = source?.[target.property];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      changer.forget();
      this.#show({ kind: 'setup', message: `No transport ${target.transport}` });
      return;
    }
    changer.known(value, state.requestedAt);
    const shown = changer.value;
    this.#show(shown === undefined ? { kind: 'waiting', ...target } : { kind: 'value', ...target, value: shown });
  }

  #show(view: LevelView): void {
    this.#presenter.show(JSON.stringify(levelFeedback(view)));
  }

  #reset(): void {
    this.#stopWatching?.();
    this.#stopWatching = undefined;
    this.#changer?.dispose();
    this.#changer = undefined;
    this.#liveWriter?.close();
    this.#liveWriter = undefined;
    this.#target = undefined;
  }
}

/** The dial's target, or the sentence saying what to set. */
function readTarget(settings: LevelDialSettings): LevelTarget | string {
  const property = textSetting(settings.property)?.toLowerCase() ?? 'volume';
  if (property !== 'volume' && property !== 'brightness') return `Property must be volume or brightness, not ${property}.`;
  const transport = textSetting(settings.transport);
  if (!transport) return 'Choose a transport.';
  const step = numberSetting(settings.step) ?? DEFAULT_LEVEL_STEP;
  if (!(step > 0 && step <= 1)) return 'Step must be above 0 and at most 1.';
  return { property, transport, step };
}
