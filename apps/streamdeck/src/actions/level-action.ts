import type { DialAction, DialDownEvent, DialRotateEvent, DialUpEvent, KeyAction, TouchTapEvent } from '@elgato/streamdeck';
import { ACTION_UUIDS, type LevelDialSettings } from '../settings.js';
import { LevelTile } from '../tiles/level-tile.js';
import type { Tile } from '../tiles/tile.js';
import { StagelinkAction } from './stagelink-action.js';
import { dialSurface } from './surfaces.js';

/**
 * `com.stagelink.mediaserver.level`: a dial for the volume or brightness of a transport. Turn to change it
 * (held down: fine steps), push to mute or black out and push again to bring it back, tap the strip to read it.
 */
export class LevelAction extends StagelinkAction<LevelDialSettings> {
  override readonly manifestId = ACTION_UUIDS.level;

  protected override createTile(action: KeyAction<LevelDialSettings> | DialAction<LevelDialSettings>, visible: boolean): Tile {
    if (!action.isDial()) throw new Error('The level action is a dial; it cannot sit on a key.');
    return new LevelTile(dialSurface(action, this.services.logger), { ...this.services, visible });
  }

  override onDialRotate(ev: DialRotateEvent<LevelDialSettings>): void {
    this.guard('dial turn', () => this.#dial(ev.action.id)?.rotate(ev.payload.ticks, ev.payload.pressed === true));
  }

  override onDialDown(ev: DialDownEvent<LevelDialSettings>): void {
    this.guard('dial press', () => this.#dial(ev.action.id)?.dialDown());
  }

  override onDialUp(ev: DialUpEvent<LevelDialSettings>): void {
    this.guard('dial release', () => this.#dial(ev.action.id)?.dialUp());
  }

  override onTouchTap(ev: TouchTapEvent<LevelDialSettings>): void {
    this.guard('touch', () => this.#dial(ev.action.id)?.touch());
  }

  #dial(context: string): LevelTile | undefined {
    const tile = this.services.tiles.tile(context);
    return tile instanceof LevelTile ? tile : undefined;
  }
}
