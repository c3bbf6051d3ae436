/**
 * The show clock key (or Stream Deck + strip): big digits of what remains of the section (or the track, the
 * playhead, the time to the next cue) of one transport, orange under a threshold and flashing under a second.
 * Core's clock of the transport (`transport.watch`) is one per transport and client, shared by every key that
 * shows it; the tile reads `current` on its own timer, at most four times a second, which costs the director
 * nothing: between the director's updates core moves the playhead on by itself. STALE when core says the clock
 * is (the playhead stands still while playing, or its values stopped), NO LINK when the stream is down; neither
 * shows a number. It watches only while on screen and lets go of the watch when the key disappears.
 */
import { reasonOf, type ClockStatus, type MediaServer, type TransportWatch } from '@stagelink/core';
import type { ClockView } from '../render/clock-view.js';
import { textSetting, type ClockSettings, type HostChoice } from '../settings.js';
import { clockView, readClockTarget, type ClockTarget } from '../state/clock/clock-reading.js';
import { DEFAULT_MIN_FRAME_INTERVAL_MS } from '../state/frames/frame-presenter.js';
import type { TileContext } from './tile.js';
import { TileBase } from './tile-base.js';

/** How often the tile reads the clock: as often as a key may be drawn (4 frames a second). */
export const CLOCK_TICK_MS = DEFAULT_MIN_FRAME_INTERVAL_MS;

/** Where the tile's views go: a key face (SVG) or a strip's feedback (JSON), as a frame the presenter compares. */
export type ClockDrawing = (view: ClockView) => string;

export class ClockTile extends TileBase<ClockSettings> {
  #target: ClockTarget | undefined;
  #watch: TransportWatch | undefined;
  /** What the watch is for (client and transport): unchanged, new settings keep it. */
  #watching: string | undefined;
  #server: MediaServer | undefined;
  #ticker: NodeJS.Timeout | undefined;
  /** The last problem core told; it is what the key shows while there is no clock yet. */
  #error: unknown;

  constructor(
    draw: (frame: string) => void,
    private readonly drawing: ClockDrawing,
    context: TileContext,
  ) {
    super(draw, context);
  }

  protected get subject(): string {
    return `Show clock ${this.#target?.transport ?? ''}`.trimEnd();
  }

  configure(settings: ClockSettings, host: HostChoice): void {
    if (this.disposed) return;
    const target = readClockTarget(settings);
    if (typeof target === 'string') {
      this.#target = undefined;
      this.setUp(target, this.drawing({ kind: 'setup', transport: textSetting(settings.transport) }));
      return;
    }
    this.#target = target;
    const binding = this.bindHost(host, {
      setUp: this.drawing({ kind: 'setup', transport: target.transport }),
      waiting: this.drawing({ kind: 'waiting', transport: target.transport, reason: 'loading' }),
    });
    if (!binding) return;
    this.reasons.clear();
    const watching = `${binding.lease.key}\u0000${target.transport}`;
    if (watching !== this.#watching || !this.#watch) {
      this.stop();
      this.#watching = watching;
      if (this.context.visible) this.#startWatching(binding.lease.server, target.transport);
    }
    this.#render();
  }

  protected override stop(): void {
    clearInterval(this.#ticker);
    this.#ticker = undefined;
    this.#watch?.close();
    this.#watch = undefined;
    this.#watching = undefined;
    this.#server = undefined;
    this.#error = undefined;
    super.stop();
  }

  #startWatching(server: MediaServer, transport: string): void {
    this.#server = server;
    try {
      this.#watch = server.transport.watch({ name: transport }, () => undefined, {
        onStatus: (status) => this.#onStatus(status),
        onError: (error) => {
          this.#error = error;
          this.reasons.tell(error.message);
          this.#render();
        },
      });
    } catch (error) {
      // A transport core refuses outright (an empty name): the key shows PROBLEM; the log says why. A name the live
      // stream cannot address comes through onError, as the server's own problems do.
      this.#error = error;
      this.reasons.tell(reasonOf(error));
      return;
    }
    // The director's updates are not drawn as they come (ten a second while playing): the key is drawn from
    // `current` at its own pace, which is also what moves it on between them.
    this.#ticker = setInterval(() => this.#render(), CLOCK_TICK_MS);
  }

  #onStatus(status: ClockStatus): void {
    if (this.disposed) return;
    // A clock that comes back needs no old problem told again; one that goes away may have a new one.
    if (status === 'online') this.reasons.clear();
    this.#render();
  }

  #render(): void {
    const target = this.#target;
    if (this.disposed || !target) return;
    const snapshot = this.#watch?.current;
    if (snapshot) this.#error = undefined;
    const view = clockView(target, { snapshot, error: this.#error, linkOnline: this.#server?.live.status === 'online' });
    this.presenter.show(this.drawing(view));
  }
}
