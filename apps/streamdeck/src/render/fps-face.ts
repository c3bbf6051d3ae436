import type { FpsAlert } from '@stagelink/core';
import { fpsAlertColour, palette } from './palette.js';
import { keySvg, text } from './svg.js';

export interface FpsReading {
  /** `LOCAL` or the machine's hostname. */
  machine: string;
  /** The latest value from the live stream. */
  fps: number;
  /** Core's classification of the rolling average against the target; `none` when no target is set. */
  alert: FpsAlert | 'none';
  target?: number;
}

export function formatFps(fps: number): string {
  return fps >= 100 ? fps.toFixed(0) : fps.toFixed(1);
}

/** A live FPS value on the colour of its alert level. */
export function fpsFace(reading: FpsReading): string {
  const foot = reading.target === undefined ? 'FPS' : `FPS / ${formatFps(reading.target).replace(/\.0$/, '')}`;
  return keySvg(
    fpsAlertColour(reading.alert),
    text(reading.machine, { y: 28, size: 16, colour: palette.text }),
    text(formatFps(reading.fps), { y: 90, size: 44, colour: palette.text, bold: true }),
    text(foot, { y: 124, size: 16, colour: palette.text }),
  );
}
