import type { DialAction, KeyAction, KeyDownEvent, KeyUpEvent, TitleParametersDidChangeEvent } from '@elgato/streamdeck';
import { ACTION_UUIDS, type TransportKeySettings } from '../settings.js';
import { TransportTile } from '../tiles/transport-tile.js';
import type { Tile } from '../tiles/tile.js';
import { StagelinkAction } from './stagelink-action.js';
import { keySurface } from './surfaces.js';

/** `com.stagelink.mediaserver.transport`: fires a transport cue (on press, or once held); shows when its transport plays. */
export class TransportAction extends StagelinkAction<TransportKeySettings> {
  override readonly manifestId = ACTION_UUIDS.transport;

  protected override createTile(action: KeyAction<TransportKeySettings> | DialAction<TransportKeySettings>, visible: boolean): Tile {
    if (!action.isKey()) throw new Error('The transport action is a key; it cannot sit on a dial.');
    return new TransportTile(keySurface(action, this.services.logger), { ...this.services, visible });
  }

  override onKeyDown(ev: KeyDownEvent<TransportKeySettings>): void {
    this.guard('key press', () => this.services.tiles.tile(ev.action.id)?.press?.());
  }

  override onKeyUp(ev: KeyUpEvent<TransportKeySettings>): void {
    this.guard('key release', () => this.services.tiles.tile(ev.action.id)?.release?.());
  }

  override onTitleParametersDidChange(ev: TitleParametersDidChangeEvent<TransportKeySettings>): void {
    const { title, titleParameters } = ev.payload;
    const onTop = title.trim() !== '' && titleParameters.showTitle && titleParameters.titleAlignment === 'top';
    this.guard('title', () => this.services.tiles.tile(ev.action.id)?.titleOnTop?.(onTop));
  }
}
