import type { Severity } from '@stagelink/core';
import { palette, severityColour } from './palette.js';
import { keySvg, text } from './svg.js';

export interface HealthReading {
  /** `SESSION` or the machine's hostname. */
  scope: string;
  severity: Severity;
}

/** The worst severity as a word on its colour. */
export function healthFace(reading: HealthReading): string {
  const word = reading.severity === 'ready' ? 'OK' : reading.severity.toUpperCase();
  return keySvg(
    severityColour(reading.severity),
    text(reading.scope, { y: 28, size: 16, colour: palette.text }),
    text(word, { y: 84, size: word.length > 5 ? 24 : 32, colour: palette.text, bold: true }),
    text('HEALTH', { y: 124, size: 14, colour: palette.text }),
  );
}
