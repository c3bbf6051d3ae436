/**
 * What the actions share: keys appear, disappear and change settings through the tile registry, presses,
 * turns and touches go to the key's tile, and the property inspector's requests are answered from the live
 * server. Each handler is guarded. An action itself only says which tile stands behind its keys.
 */
import streamDeck, {
  SingletonAction,
  type DialAction,
  type DialDownEvent,
  type DialRotateEvent,
  type DialUpEvent,
  type DidReceiveSettingsEvent,
  type KeyAction,
  type KeyDownEvent,
  type KeyUpEvent,
  type SendToPluginEvent,
  type TitleParametersDidChangeEvent,
  type TouchTapEvent,
  type WillAppearEvent,
  type WillDisappearEvent,
} from '@elgato/streamdeck';
import type { Logger } from '@stagelink/core';
import type { Translate } from '../i18n.js';
import { answerInspector } from '../inspector/inspector-requests.js';
import type { JsonObject, JsonValue } from '../settings.js';
import type { ServerPool } from '../state/connection/server-pool.js';
import type { Tile, TileContext } from '../tiles/tile.js';
import type { TileRegistry } from '../tiles/tile-registry.js';
import { guarded } from './guard.js';

export interface PluginServices {
  pool: ServerPool;
  tiles: TileRegistry;
  logger: Logger;
  /** The plugin's sentences in the Stream Deck app's language. */
  translate: Translate;
}

export abstract class StagelinkAction<S extends JsonObject> extends SingletonAction<S> {
  constructor(protected readonly services: PluginServices) {
    super();
  }

  /** The tile behind one key or dial; `context.visible` is false inside a multi-action. */
  protected abstract createTile(action: KeyAction<S> | DialAction<S>, context: TileContext): Tile;

  protected guard(what: string, run: () => unknown): void {
    // The services' logger is scoped to this action (plugin.ts): the line says which action it is about.
    guarded(this.services.logger, what, run);
  }

  override onWillAppear(ev: WillAppearEvent<S>): void {
    this.guard('appearing', () => {
      const context: TileContext = { ...this.services, visible: !ev.payload.isInMultiAction, outcome: this.services.tiles.outcomeSlot(ev.action.id) };
      this.services.tiles.appear(ev.action.id, ev.payload.settings, () => this.createTile(ev.action, context));
    });
  }

  override onWillDisappear(ev: WillDisappearEvent<S>): void {
    this.guard('disappearing', () => this.services.tiles.disappear(ev.action.id));
  }

  override onDidReceiveSettings(ev: DidReceiveSettingsEvent<S>): void {
    this.guard('new settings', () => this.services.tiles.settingsChanged(ev.action.id, ev.payload.settings));
  }

  // Every read of an event's payload happens inside the guard: a frame the app would never send (no payload)
  // must not escape as an unhandled error.
  override onKeyDown(ev: KeyDownEvent<S>): void {
    this.guard('key press', () => {
      // A multi-action step carries the state the operator chose for it in the app.
      const step = ev.payload.isInMultiAction ? ev.payload.userDesiredState : undefined;
      return this.#tile(ev)?.press?.(step);
    });
  }

  override onKeyUp(ev: KeyUpEvent<S>): void {
    this.guard('key release', () => this.#tile(ev)?.release?.());
  }

  override onTitleParametersDidChange(ev: TitleParametersDidChangeEvent<S>): void {
    this.guard('title', () => {
      const { title, titleParameters } = ev.payload;
      const onTop = title.trim() !== '' && titleParameters.showTitle && titleParameters.titleAlignment === 'top';
      return this.#tile(ev)?.titleOnTop?.(onTop);
    });
  }

  override onDialRotate(ev: DialRotateEvent<S>): void {
    this.guard('dial turn', () => {
      // A turn whose payload has no tick count is still a turn: the tile refuses it with an alert.
      const payload = ev.payload as Partial<DialRotateEvent<S>['payload']> | null | undefined;
      return this.#tile(ev)?.rotate?.(payload?.ticks, payload?.pressed === true);
    });
  }

  override onDialDown(ev: DialDownEvent<S>): void {
    this.guard('dial press', () => this.#tile(ev)?.dialDown?.());
  }

  override onDialUp(ev: DialUpEvent<S>): void {
    this.guard('dial release', () => this.#tile(ev)?.dialUp?.());
  }

  override onTouchTap(ev: TouchTapEvent<S>): void {
    this.guard('touch', () => this.#tile(ev)?.touch?.());
  }

  override onSendToPlugin(ev: SendToPluginEvent<JsonValue, S>): void {
    this.guard('inspector request', async () => {
      // An inspector can ask before the app has sent the global host; give it a moment to arrive.
      await this.services.tiles.globalSettingsLoaded(2000);
      const { tiles, pool, translate } = this.services;
      const answer = await answerInspector(pool, ev.payload, tiles.hostOf(ev.action.id), translate, tiles.searchOf(ev.action.id));
      // The SDK sends to whichever inspector is open now: when the operator has moved on to another key, the
      // answer would land in that key's page, so it is dropped.
      if (streamDeck.ui.action?.id === ev.action.id) await streamDeck.ui.sendToPropertyInspector(answer);
    });
  }

  #tile(ev: { action: { id: string } }): Tile | undefined {
    return this.services.tiles.tile(ev.action.id);
  }
}
