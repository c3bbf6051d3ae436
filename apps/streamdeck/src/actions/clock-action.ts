import type { DialAction, KeyAction } from '@elgato/streamdeck';
import { clockFace } from '../render/clock-face.js';
import { clockFeedback } from '../render/clock-feedback.js';
import { ACTION_UUIDS, type ClockSettings } from '../settings.js';
import { ClockTile } from '../tiles/clock-tile.js';
import type { TileContext } from '../tiles/tile.js';
import { StagelinkAction } from './stagelink-action.js';
import { dialSurface, keySurface } from './surfaces.js';

/**
 * `com.stagelink.mediaserver.clock`: the show clock of a transport, on a key (big digits) or on a Stream Deck +
 * dial (its part of the touch strip: section, remaining, a progress bar).
 */
export class ClockAction extends StagelinkAction<ClockSettings> {
  override readonly manifestId = ACTION_UUIDS.clock;

  protected override createTile(action: KeyAction<ClockSettings> | DialAction<ClockSettings>, context: TileContext): ClockTile {
    if (action.isDial()) {
      const strip = dialSurface(action, context.logger);
      // The presenter compares frames as strings: the strip's feedback travels as JSON.
      return new ClockTile((json) => strip.setFeedback(JSON.parse(json) as Record<string, unknown>), (view) => JSON.stringify(clockFeedback(view)), context);
    }
    const key = keySurface(action, context.logger);
    return new ClockTile((svg) => key.setImage(svg), clockFace, context);
  }
}
