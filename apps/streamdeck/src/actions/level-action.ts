import type { DialAction, KeyAction } from '@elgato/streamdeck';
import { ACTION_UUIDS, type LevelDialSettings } from '../settings.js';
import { LevelTile } from '../tiles/level-tile.js';
import type { TileContext } from '../tiles/tile.js';
import { StagelinkAction } from './stagelink-action.js';
import { dialSurface } from './surfaces.js';

/**
 * `com.stagelink.mediaserver.level`: a dial for the volume or brightness of a transport. Turn to change it
 * (held down: fine steps), push to mute or black out and push again to bring it back, tap the strip to read it.
 */
export class LevelAction extends StagelinkAction<LevelDialSettings> {
  override readonly manifestId = ACTION_UUIDS.level;

  protected override createTile(action: KeyAction<LevelDialSettings> | DialAction<LevelDialSettings>, context: TileContext): LevelTile {
    return new LevelTile(dialSurface(action, context.logger), context);
  }
}
