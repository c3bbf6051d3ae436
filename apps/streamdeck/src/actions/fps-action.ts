import type { DialAction, KeyAction } from '@elgato/streamdeck';
import { ACTION_UUIDS, type FpsKeySettings } from '../settings.js';
import { FpsTile } from '../tiles/fps-tile.js';
import type { TileContext } from '../tiles/tile.js';
import { StagelinkAction } from './stagelink-action.js';
import { keySurface } from './surfaces.js';

/** `com.stagelink.mediaserver.fps`: live FPS of the local or a named machine. */
export class FpsAction extends StagelinkAction<FpsKeySettings> {
  override readonly manifestId = ACTION_UUIDS.fps;

  protected override createTile(action: KeyAction<FpsKeySettings> | DialAction<FpsKeySettings>, context: TileContext): FpsTile {
    return new FpsTile(keySurface(action, context.logger), context);
  }
}
