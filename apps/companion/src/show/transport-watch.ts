/**
 * One transport as the module shows it: what the transports list says (playmode, track), and its volume and
 * brightness from the live stream, which the `volume_adjust` and `brightness_adjust` actions write through as the
 * deck's dial does.
 */
import { livePresets, type MediaServer } from '@stagelink/core';
import { asNumber, LiveValue } from './live-value.js';

export type Level = 'volume' | 'brightness';

export class TransportWatch {
  readonly levels: Record<Level, LiveValue<number>>;

  constructor(
    readonly id: string,
    readonly name: string,
    server: MediaServer,
    onChange: () => void,
    linkWasUp: () => boolean,
  ) {
    this.levels = {
      volume: new LiveValue(server, livePresets.transportVolume(name), asNumber, onChange, linkWasUp),
      brightness: new LiveValue(server, livePresets.transportBrightness(name), asNumber, onChange, linkWasUp),
    };
  }

  close(): void {
    this.levels.volume.close();
    this.levels.brightness.close();
  }
}
