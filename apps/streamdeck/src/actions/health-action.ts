import type { DialAction, KeyAction, KeyDownEvent } from '@elgato/streamdeck';
import { ACTION_UUIDS, type HealthKeySettings } from '../settings.js';
import { HealthTile } from '../tiles/health-tile.js';
import type { Tile } from '../tiles/tile.js';
import { StagelinkAction } from './stagelink-action.js';
import { keySurface } from './surfaces.js';

/** `com.stagelink.mediaserver.health`: worst severity of the session or one machine; a press refreshes. */
export class HealthAction extends StagelinkAction<HealthKeySettings> {
  override readonly manifestId = ACTION_UUIDS.health;

  protected override createTile(action: KeyAction<HealthKeySettings> | DialAction<HealthKeySettings>, visible: boolean): Tile {
    if (!action.isKey()) throw new Error('The health action is a key; it cannot sit on a dial.');
    return new HealthTile(keySurface(action, this.services.logger), { ...this.services, visible });
  }

  override onKeyDown(ev: KeyDownEvent<HealthKeySettings>): void {
    this.guard('key press', () => this.services.tiles.tile(ev.action.id)?.press?.());
  }
}
