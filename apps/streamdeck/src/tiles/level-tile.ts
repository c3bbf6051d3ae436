/**
 * The level dial: turning it changes the volume or brightness of a transport, a step per tick (a tenth of a
 * step while the dial is held down), with ticks coalesced so a fast turn sends few writes; a push (pressed and
 * let go without turning) mutes or blacks out, and the next push brings the level back; touching the strip
 * reads the value from the server at once. The strip shows the transport, the level and a short state word
 * (NO LINK while the link is down); why a dial cannot work goes to the log. The current value comes from the
 * shared transport poll. A change goes through the live stream where the server offers the property
 * (smooth, no request per step), else over REST; the live path falling through on any doubt is
 * LiveLevelWriter's job.
 */
import { livePresets, reasonOf } from '@stagelink/core';
import { levelFeedback, type LevelProperty, type LevelView } from '../render/level-feedback.js';
import { numberSetting, textSetting, type HostChoice, type LevelDialSettings } from '../settings.js';
import { LevelChanger } from '../state/levels/level-changer.js';
import { LevelMemory } from '../state/levels/level-memory.js';
import { LiveLevelWriter } from '../state/levels/live-level-writer.js';
import { isLinkDown, largeAnswersFail } from '../state/connection/link.js';
import type { ServerLease, TransportList } from '../state/connection/server-pool.js';
import type { PollState } from '../state/connection/shared-poll.js';
import { asTransportList, levelSource } from '../state/cues/transport-activity.js';
import type { DialSurface, TileContext } from './tile.js';
import { TileBase } from './tile-base.js';

export const DEFAULT_LEVEL_STEP = 0.01;
/** Turning while the dial is held down moves by this part of a step. */
export const FINE_STEP_FRACTION = 0.1;
/** A write that lands sooner shows nothing extra; one still out shows SENDING. */
export const SENDING_DELAY_MS = 250;

interface LevelTarget {
  property: LevelProperty;
  transport: string;
  step: number;
}

/** One for the whole plugin: every dial of a level shares where a push brings it back to. */
const returnLevels = new LevelMemory();

/**
 * The strip follows a turning hand: up to 20 frames a second (a key's 4 would lag a turn by a quarter second). A
 * strip frame is a small feedback object, not an image.
 */
export const STRIP_MIN_FRAME_INTERVAL_MS = 50;

export class LevelTile extends TileBase<LevelDialSettings> {
  #target: LevelTarget | undefined;
  #changer: LevelChanger | undefined;
  #liveWriter: LiveLevelWriter | undefined;
  #linkDown = false;
  /** Set while the dial is held down: whether it was turned, which makes the release no push. */
  #held: { turned: boolean } | undefined;
  #sending = false;
  #sendingTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly surface: DialSurface,
    context: TileContext,
    private readonly memory = returnLevels,
  ) {
    super((json) => surface.setFeedback(JSON.parse(json) as Record<string, unknown>), context, STRIP_MIN_FRAME_INTERVAL_MS);
  }

  protected get subject(): string {
    return 'Level dial';
  }

  configure(settings: LevelDialSettings, host: HostChoice): void {
    if (this.disposed) return;
    const target = readTarget(settings);
    if (typeof target === 'string') {
      this.setUp(target, frameOf({ kind: 'setup', transport: textSetting(settings.transport) }));
      return;
    }
    const binding = this.bindHost(host, {
      setUp: frameOf({ kind: 'setup', transport: target.transport }),
      waiting: frameOf({ kind: 'waiting', ...target }),
    });
    if (!binding) return;
    this.reasons.clear();
    const same = !binding.changed && this.#target?.property === target.property && this.#target.transport === target.transport;
    this.#target = target;
    if (same && this.#changer) {
      this.#render(binding.lease.transports.state);
      return;
    }
    this.stop();
    this.#target = target;
    this.#changer = this.#changerFor(binding.lease, target);
    if (this.context.visible) {
      this.#liveWriter = this.#liveWriterFor(binding.lease, target);
      this.follow(binding.lease.transports, (state) => this.#render(state));
    }
  }

  /**
   * `fine` when the dial is held down while it turns: a tenth of a step per tick. `ticks` is as the app sent it: a
   * count that is no whole number (missing, text, NaN, 2.5) is refused with an alert; a huge one ends at 0 or full.
   */
  rotate(ticks: unknown, fine = false): void {
    if (fine && this.#held) this.#held.turned = true;
    if (ticks === 0) return;
    if (typeof ticks !== 'number' || !Number.isInteger(ticks)) {
      this.context.logger.warn(`${this.subject} not changed: the Stream Deck app sent a turn of ${describeTicks(ticks)}, not a whole number of ticks.`);
      this.surface.showAlert();
      return;
    }
    const target = this.#target;
    if (!target) {
      // Not set up (the log says what to set) or waiting for the app's settings: the turn changes nothing.
      this.surface.showAlert();
      return;
    }
    const step = fine ? target.step * FINE_STEP_FRACTION : target.step;
    if (!this.#changer || this.#linkDown || !this.#changer.turn(ticks, step)) {
      // No value to start from: the dial cannot know where "three steps up" is.
      this.surface.showAlert();
      this.binding.lease?.transports.refresh();
    }
  }

  dialDown(): void {
    this.#held = { turned: false };
  }

  /** Let go without turning: the push mutes (or blacks out), or brings the level back. */
  dialUp(): void {
    const held = this.#held;
    this.#held = undefined;
    if (held && !held.turned) this.#toggleOff();
  }

  /** A tap on the strip: read the value from the server now. */
  touch(): void {
    this.binding.lease?.transports.refresh();
  }

  #toggleOff(): void {
    const target = this.#target;
    const changer = this.#changer;
    if (!target || !changer || this.#linkDown || !changer.toggleOff()) {
      if (target && changer?.value !== undefined && !this.#linkDown) {
        this.context.logger.warn(`${target.transport}'s ${target.property} is at 0 and this dial has no level to bring back: turn it up.`);
      }
      this.surface.showAlert();
      this.binding.lease?.transports.refresh();
    }
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
      returnLevel: this.memory.of(lease.origin, target.transport, target.property),
      onValue: (value) => this.#showLevel(target, value),
      onWriting: (writing) => this.#writing(writing),
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

  /** A write is out: after a moment without it landing, the strip says SENDING until it has. */
  #writing(writing: boolean): void {
    this.#stopSendingMark();
    if (writing) {
      this.#sendingTimer = setTimeout(() => {
        this.#sending = true;
        this.#showCurrent();
      }, SENDING_DELAY_MS);
    } else {
      this.#showCurrent();
    }
  }

  #stopSendingMark(): void {
    clearTimeout(this.#sendingTimer);
    this.#sendingTimer = undefined;
    this.#sending = false;
  }

  #showCurrent(): void {
    const value = this.#changer?.value;
    if (this.#target && value !== undefined && !this.#linkDown) this.#showLevel(this.#target, value);
  }

  #render(state: PollState<TransportList>): void {
    const target = this.#target;
    const changer = this.#changer;
    if (this.disposed || !target || !changer) return;
    this.#linkDown = state.status === 'offline' && isLinkDown(state.error);
    if (state.status !== 'online') {
      changer.forget();
      if (state.status === 'offline' && largeAnswersFail(state.error)) {
        this.reasons.tell(reasonOf(state.error));
        this.#show({ kind: 'largeAnswersFail', ...target });
        return;
      }
      this.#show(this.#linkDown ? { kind: 'noLink', ...target } : { kind: 'waiting', ...target });
      return;
    }
    const list = asTransportList(state.value);
    const source = list ? levelSource(list, target.transport) : undefined;
    const value = source?.[target.property];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      changer.forget();
      this.reasons.tell(`No transport ${target.transport} on ${this.binding.lease?.origin ?? 'the server'}: choose one it has.`);
      this.#show({ kind: 'missing', ...target });
      return;
    }
    this.reasons.clear();
    changer.known(value, state.requestedAt);
    const shown = changer.value;
    if (shown === undefined) this.#show({ kind: 'waiting', ...target });
    else this.#showLevel(target, shown);
  }

  #showLevel(target: LevelTarget, value: number): void {
    this.#show({ kind: 'value', property: target.property, transport: target.transport, value, sending: this.#sending });
  }

  #show(view: LevelView): void {
    this.presenter.show(frameOf(view));
  }

  protected override stop(): void {
    super.stop();
    this.#stopSendingMark();
    this.#changer?.dispose();
    this.#changer = undefined;
    this.#liveWriter?.close();
    this.#liveWriter = undefined;
    this.#target = undefined;
  }
}

/** A tick count the app should never send, as a log line can show it (a string may be of any length). */
function describeTicks(ticks: unknown): string {
  if (typeof ticks === 'number') return `${ticks} ticks`;
  if (ticks === undefined) return 'no tick count';
  return `a ${ticks === null ? 'null' : typeof ticks} tick count`;
}

/** The strip's feedback as a frame for the presenter, which compares frames as strings. */
function frameOf(view: LevelView): string {
  return JSON.stringify(levelFeedback(view));
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
