import { InvalidInputError } from '@stagelink/core';
import { sayingError } from '../../shared/error-words.js';
import type { NodeDef } from '../../shared/node-red.js';

export interface ClockSettings {
  /** Most snapshots a second on the first output. */
  rate: number;
  /** Section remaining times (seconds) that raise a `remaining` event, lowest first. */
  thresholds: number[];
}

export const DEFAULT_RATE = 4;
/** A frame at 25 fps: a display cannot use more, and the director sends the playhead ten times a second. */
export const MAX_RATE = 25;
export const DEFAULT_THRESHOLDS = '30,10,5';

/** Reads the node's rate and warning thresholds; throws what to fix when one is wrong. */
export function clockSettingsOf(def: NodeDef): ClockSettings {
  return { rate: rateOf(def.rate), thresholds: thresholdsOf(def.thresholds) };
}

function rateOf(setting: unknown): number {
  if (setting === undefined || setting === null || setting === '') return DEFAULT_RATE;
  const rate = Number(setting);
  if (!Number.isFinite(rate) || rate <= 0 || rate > MAX_RATE) {
    throw sayingError(InvalidInputError, 'error.clockRate', { max: MAX_RATE, got: JSON.stringify(setting) ?? typeof setting });
  }
  return rate;
}

/** `"30, 10, 5"` (commas or spaces) to `[5, 10, 30]`; blank: no warnings. */
export function thresholdsOf(setting: unknown): number[] {
  if (setting === undefined || setting === null) return thresholdsOf(DEFAULT_THRESHOLDS);
  if (typeof setting !== 'string' && typeof setting !== 'number') {
    throw sayingError(InvalidInputError, 'error.warnAtFormat', { got: JSON.stringify(setting) ?? typeof setting });
  }
  const text = String(setting).trim();
  if (text === '') return [];
  const values = text.split(/[\s,;]+/).filter((part) => part !== '').map(Number);
  if (values.some((value) => !Number.isFinite(value) || value <= 0)) {
    throw sayingError(InvalidInputError, 'error.warnAtPositive', { got: JSON.stringify(setting) ?? typeof setting });
  }
  return [...new Set(values)].sort((a, b) => a - b);
}
