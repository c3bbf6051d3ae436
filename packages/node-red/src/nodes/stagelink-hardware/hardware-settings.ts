import { DEFAULT_HARDWARE_EVERY_MS, InvalidInputError, MIN_HARDWARE_EVERY_MS, type HardwareThresholds } from '@stagelink/core';
import { sayingError } from '../../shared/error-words.js';
import type { NodeDef } from '../../shared/node-red.js';

export interface HardwareSettings {
  everyMs: number;
  /** Only the thresholds set on the node: core's defaults for the rest. */
  thresholds: Partial<HardwareThresholds>;
}

export const DEFAULT_EVERY_SECONDS = DEFAULT_HARDWARE_EVERY_MS / 1000;

/** Reads the node's period and thresholds; throws what to fix when one is wrong. */
export function hardwareSettingsOf(def: NodeDef): HardwareSettings {
  return {
    everyMs: everyMsOf(def['every']),
    thresholds: {
      ...limit(def, 'minFanRpm'),
      ...limit(def, 'warningCelsius'),
      ...limit(def, 'errorCelsius'),
    },
  };
}

function blank(setting: unknown): boolean {
  return setting === undefined || setting === null || (typeof setting === 'string' && setting.trim() === '');
}

function everyMsOf(setting: unknown): number {
  if (blank(setting)) return DEFAULT_HARDWARE_EVERY_MS;
  const seconds = Number(setting);
  if (!Number.isFinite(seconds) || seconds * 1000 < MIN_HARDWARE_EVERY_MS) {
    throw sayingError(InvalidInputError, 'error.hardwareEvery', { min: MIN_HARDWARE_EVERY_MS / 1000, got: JSON.stringify(setting) ?? typeof setting });
  }
  return Math.round(seconds * 1000);
}

function limit(def: NodeDef, name: 'minFanRpm' | 'warningCelsius' | 'errorCelsius'): Partial<HardwareThresholds> {
  const setting: unknown = def[name];
  if (blank(setting)) return {};
  const value = Number(setting);
  if (!Number.isFinite(value) || value < 0) throw sayingError(InvalidInputError, 'error.hardwareThreshold', { name, got: JSON.stringify(setting) ?? typeof setting });
  return { [name]: value };
}
