/**
 * What every key of the plugin is, seen from its action class: it is configured (on appearing, and whenever
 * its own or the global settings change), it may be pressed or turned, and it is disposed when it leaves the
 * screen. A disposed tile holds no lease, subscription, poll or timer.
 */
import type { Logger } from '@stagelink/core';
import type { HostChoice, JsonObject } from '../settings.js';
import type { ServerPool } from '../state/connection/server-pool.js';
import type { OutcomeSlot, RecalledOutcome } from './key-outcomes.js';

export interface Tile<S extends JsonObject = JsonObject> {
  configure(settings: S, host: HostChoice): void;
  /** `step`: the state a multi-action step was given in the app (`userDesiredState`); undefined on a key. */
  press?(step?: number): void;
  /** The key went up again (after `press`). */
  release?(): void;
  /** Whether the Stream Deck app draws a title the operator gave the key at the top of its face. */
  titleOnTop?(onTop: boolean): void;
  /** `fine` while the dial is held down as it turns; `ticks` as the app sent it, checked by the tile. */
  rotate?(ticks: unknown, fine: boolean): void;
  dialDown?(): void;
  dialUp?(): void;
  /** The touch strip above the dial was tapped. */
  touch?(): void;
  /** What the key's latest cue did, to show for `leftMs` (undefined: stop showing it). */
  showOutcome?(outcome: RecalledOutcome | undefined): void;
  dispose(): void;
}

/** Where a key's frames go: the Stream Deck action, or a recorder in tests. */
export interface KeySurface {
  setImage(svg: string): void;
  /** The key's title, drawn by the app over any image; undefined gives it back to the operator's title. */
  setTitle?(title: string | undefined): void;
  showOk(): void;
  showAlert(): void;
}

export interface DialSurface {
  /** Feedback for the touch strip's layout, as an object of layout keys. */
  setFeedback(feedback: Record<string, unknown>): void;
  showAlert(): void;
}

export interface TileContext {
  pool: ServerPool;
  logger: Logger;
  /** False for a key inside a multi-action: it is never on screen, so it gets no frames and no polls. */
  visible: boolean;
  /** Where the key's cue outcomes are kept, so they outlive the tile (a page flip); the tile's own when absent. */
  outcome?: OutcomeSlot;
}
