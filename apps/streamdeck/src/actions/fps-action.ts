import type { DialAction, KeyAction } from '@elgato/streamdeck';
import { ACTION_UUIDS, type FpsKeySettings } from '../settings.js';
import { FpsTile } from '../tiles/fps-tile.js';
import type { Tile } from '../tiles/tile.js';
import { StagelinkAction } from './stagelink-action.js';
import { keySurface } from './surfaces.js';

/** `com.stagelink.mediaserver.fps`: live FPS of the local or a named machine. */
export class FpsAction extends StagelinkAction<FpsKeySettings> {
  override readonly manifestId = ACTION_UUIDS.fps;

  protected override createTile(action: KeyAction<FpsKeySettings> | DialAction<FpsKeySettings>, visible: boolean): Tile {
    if (!action.isKey()) throw new Error('The FPS action is a key; it cannot sit on a dial.');
    return new FpsTile(keySurface(action, this.services.logger), { ...this.services, visible });
  }
}
