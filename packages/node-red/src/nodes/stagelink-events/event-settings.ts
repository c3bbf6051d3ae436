import { ALERT_AVERAGE_WINDOW, InvalidInputError } from '@stagelink/core';
import { sayingError } from '../../shared/error-words.js';
import type { NodeDef } from '../../shared/node-red.js';
import { say } from '../../shared/words.js';

/** What an operator reacts to, one checkbox each in the editor. */
export const EVENT_KINDS = ['director', 'playmode', 'track', 'health', 'takeover', 'fps', 'stale', 'connection'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** A gentle poll: a few seconds, never a tight loop, as for the status node. */
export const DEFAULT_POLL_SECONDS = 2;
const MIN_POLL_SECONDS = 1;
/** The frame rate a show runs at when the node is not told otherwise. */
export const DEFAULT_FPS_TARGET = 60;

export interface EventSettings {
  kinds: ReadonlySet<EventKind>;
  intervalMs: number;
  fpsTarget: number;
  /** Samples in the rolling average an FPS alert is judged on. */
  fpsWindow: number;
  /** Hostnames in lower case; empty: every machine of the session. */
  machines: readonly string[];
}

/** Reads the node's settings; throws what to fix when one cannot be used. */
export function eventSettingsOf(def: NodeDef): EventSettings {
  return {
    // A kind is watched unless its box was unticked: a node saved before a kind existed watches it too.
    kinds: new Set(EVENT_KINDS.filter((kind) => def[kind] !== false)),
    intervalMs: Math.max(MIN_POLL_SECONDS, numberSetting(def.interval, DEFAULT_POLL_SECONDS, 'error.whatPollInterval')) * 1000,
    fpsTarget: numberSetting(def.fpsTarget, DEFAULT_FPS_TARGET, 'error.whatFpsTarget'),
    fpsWindow: Math.max(1, Math.round(numberSetting(def.fpsWindow, ALERT_AVERAGE_WINDOW, 'error.whatFpsWindow'))),
    machines: (typeof def.machines === 'string' ? def.machines : '')
      .split(/[\s,]+/)
      .filter((hostname) => hostname !== '')
      .map((hostname) => hostname.toLowerCase()),
  };
}

/** A positive number, or the default when the setting is blank; `what` is the catalog key of the setting's name. */
function numberSetting(value: unknown, fallback: number, what: string): number {
  if (value === undefined || value === null || value === '') return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw sayingError(InvalidInputError, 'error.notPositive', { what: say(what), got: JSON.stringify(value) ?? typeof value });
  return number;
}
