/**
 * One transport as the module shows it: what the transports list says (playmode, track), its volume and
 * brightness from the live stream, which the `volume_adjust` and `brightness_adjust` actions write through as the
 * deck's dial does, and its show clock (core's, shared by every watcher of the transport on this client).
 */
import { livePresets, type MediaServer, type ShowClockSnapshot, type TransportWatch as ClockWatch } from '@stagelink/core';
import { asNumber, LiveValue } from './live-value.js';

export type Level = 'volume' | 'brightness';

export class TransportWatch {
  readonly levels: Record<Level, LiveValue<number>>;
  readonly #clock: ClockWatch;

  constructor(
    readonly id: string,
    readonly name: string,
    server: MediaServer,
    onChange: () => void,
    linkWasUp: () => boolean,
  ) {
    this.levels = {
      volume: new LiveValue(server, () => livePresets.transportVolume(name), asNumber, onChange, linkWasUp),
      brightness: new LiveValue(server, () => livePresets.transportBrightness(name), asNumber, onChange, linkWasUp),
    };
    // The clock is read on the module's own timer (it moves between the director's updates), so its every
    // update needs nothing here; core logs a read problem once and retries it.
    this.#clock = server.transport.watch({ name }, () => undefined);
  }

  /** The show clock now (moved on with the playhead while online), or undefined before the director sent it. */
  get clock(): ShowClockSnapshot | undefined {
    return this.#clock.current;
  }

  close(): void {
    this.levels.volume.close();
    this.levels.brightness.close();
    this.#clock.close();
  }
}
