import type { FpsAlert } from '@stagelink/core';
import { keyFace } from './key-layout.js';
import { fpsAlertColour, inkOn } from './palette.js';
import type { StatusSymbol } from './symbols.js';

export interface FpsReading {
  /** `LOCAL` or the machine's hostname. */
  machine: string;
  /** The latest value from the live stream. */
  fps: number;
  /** Core's classification of the rolling average against the target; `none` when no target is set. */
  alert: FpsAlert | 'none';
}

const ALERT_SYMBOLS: Record<FpsAlert, StatusSymbol> = { ok: 'ok', warning: 'warning', error: 'error' };

export function formatFps(fps: number): string {
  return fps >= 100 ? fps.toFixed(0) : fps.toFixed(1);
}

/** A live FPS value on the colour of its alert level, with the alert's symbol; no symbol without a target. */
export function fpsFace(reading: FpsReading): string {
  const background = fpsAlertColour(reading.alert);
  const ink = inkOn(background);
  return keyFace({
    background,
    ...(reading.alert === 'none' ? {} : { symbol: { shape: ALERT_SYMBOLS[reading.alert], colour: ink } }),
    name: { text: reading.machine, size: 22, colour: ink },
    state: { text: `${formatFps(reading.fps)} FPS`, size: 36, colour: ink, bold: true },
  });
}
