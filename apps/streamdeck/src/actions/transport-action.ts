import type { DialAction, KeyAction } from '@elgato/streamdeck';
import { ACTION_UUIDS, type TransportKeySettings } from '../settings.js';
import type { TileContext } from '../tiles/tile.js';
import { TransportTile } from '../tiles/transport-tile.js';
import { StagelinkAction } from './stagelink-action.js';
import { keySurface } from './surfaces.js';

/** `com.stagelink.mediaserver.transport`: fires a transport cue (on press, or once held); shows when its transport plays. */
export class TransportAction extends StagelinkAction<TransportKeySettings> {
  override readonly manifestId = ACTION_UUIDS.transport;

  protected override createTile(action: KeyAction<TransportKeySettings> | DialAction<TransportKeySettings>, context: TileContext): TransportTile {
    return new TransportTile(keySurface(action, context.logger), context);
  }
}
