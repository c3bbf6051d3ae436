import type { DialAction, KeyAction } from '@elgato/streamdeck';
import { ACTION_UUIDS, type RenderStreamKeySettings } from '../settings.js';
import { LayerTile } from '../tiles/layer-tile.js';
import type { TileContext } from '../tiles/tile.js';
import { StagelinkAction } from './stagelink-action.js';
import { keySurface } from './surfaces.js';

/**
 * `com.stagelink.mediaserver.renderstream`: a RenderStream layer's workload (RUNNING, ERROR, STOPPED, ...); a press
 * restarts, starts or stops it, restart and stop on a second press.
 */
export class RenderStreamAction extends StagelinkAction<RenderStreamKeySettings> {
  override readonly manifestId = ACTION_UUIDS.renderstream;

  protected override createTile(action: KeyAction<RenderStreamKeySettings> | DialAction<RenderStreamKeySettings>, context: TileContext): LayerTile {
    return new LayerTile(keySurface(action, context.logger), context);
  }
}
