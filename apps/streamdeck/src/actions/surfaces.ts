/**
 * The Stream Deck actions as the tiles see them. Every command to the app is a promise the SDK leaves to
 * us; a failed send is logged, never left unhandled.
 */
import type { DialAction, KeyAction } from '@elgato/streamdeck';
import { reasonOf, type Logger } from '@stagelink/core';
import { svgDataUrl } from '../render/svg.js';
import type { JsonObject } from '../settings.js';
import type { DialSurface, KeySurface } from '../tiles/tile.js';

function sent(logger: Logger, what: string, promise: Promise<void>): void {
  promise.catch((error: unknown) => logger.warn(`${what} did not reach the Stream Deck app: ${reasonOf(error)}`));
}

/** The surface of an action declared for keys only; the manifest keeps it off dials. */
export function keySurface(action: KeyAction<JsonObject> | DialAction<JsonObject>, logger: Logger): KeySurface {
  if (!action.isKey()) throw new Error('This action is a key; it cannot sit on a dial.');
  return {
    setImage: (svg) => sent(logger, 'setImage', action.setImage(svgDataUrl(svg))),
    setTitle: (title) => sent(logger, 'setTitle', action.setTitle(title)),
    showOk: () => sent(logger, 'showOk', action.showOk()),
    showAlert: () => sent(logger, 'showAlert', action.showAlert()),
  };
}

/** The surface of an action declared for dials only; the manifest keeps it off keys. */
export function dialSurface(action: KeyAction<JsonObject> | DialAction<JsonObject>, logger: Logger): DialSurface {
  if (!action.isDial()) throw new Error('This action is a dial; it cannot sit on a key.');
  return {
    setFeedback: (feedback) => sent(logger, 'setFeedback', action.setFeedback(feedback as Parameters<typeof action.setFeedback>[0])),
    showAlert: () => sent(logger, 'showAlert', action.showAlert()),
  };
}
