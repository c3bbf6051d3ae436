import type { DialAction, DialDownEvent, DialRotateEvent, KeyAction, TouchTapEvent } from '@elgato/streamdeck';
import { ACTION_UUIDS, type LevelDialSettings } from '../settings.js';
import { LevelTile } from '../tiles/level-tile.js';
import type { Tile } from '../tiles/tile.js';
import { StagelinkAction } from './stagelink-action.js';
import { dialSurface } from './surfaces.js';

/** `com.stagelink.mediaserver.level`: a dial for the volume or brightness of a transport. */
export class LevelAction extends StagelinkAction<LevelDialSettings> {
  override readonly manifestId = ACTION_UUIDS.level;

  protected override createTile(action: KeyAction<LevelDialSettings> | DialAction<LevelDialSettings>, visible: boolean): Tile {
    if (!action.isDial()) throw new Error('The level action is a dial; it cannot sit on a key.');
    return new LevelTile(dialSurface(action, this.services.logger), { ...this.services, visible });
  }

  override onDialRotate(ev: DialRotateEvent<LevelDialSettings>): void {
    this.guard('dial turn', () => this.services.tiles.tile(ev.action.id)?.rotate?.(ev.payload.ticks));
  }

  override onDialDown(ev: DialDownEvent<LevelDialSettings>): void {
    this.guard('dial press', () => this.services.tiles.tile(ev.action.id)?.press?.());
  }

  override onTouchTap(ev: TouchTapEvent<LevelDialSettings>): void {
    this.guard('touch', () => this.services.tiles.tile(ev.action.id)?.press?.());
  }
}
