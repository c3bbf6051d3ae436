import type { DialAction, KeyAction } from '@elgato/streamdeck';
import { ACTION_UUIDS, type HealthKeySettings } from '../settings.js';
import { HealthTile } from '../tiles/health-tile.js';
import type { TileContext } from '../tiles/tile.js';
import { StagelinkAction } from './stagelink-action.js';
import { keySurface } from './surfaces.js';

/** `com.stagelink.mediaserver.health`: worst severity of the session or one machine; a press refreshes. */
export class HealthAction extends StagelinkAction<HealthKeySettings> {
  override readonly manifestId = ACTION_UUIDS.health;

  protected override createTile(action: KeyAction<HealthKeySettings> | DialAction<HealthKeySettings>, context: TileContext): HealthTile {
    return new HealthTile(keySurface(action, context.logger), context);
  }
}
