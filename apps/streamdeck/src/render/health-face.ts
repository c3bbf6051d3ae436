import type { Severity } from '@stagelink/core';
import { keyFace } from './key-layout.js';
import { inkOn, severityColour } from './palette.js';
import type { StatusSymbol } from './symbols.js';

export interface HealthReading {
  /** `SESSION` or the machine's hostname. */
  scope: string;
  severity: Severity;
}

const SEVERITY_SIGNS: Record<Severity, { word: string; symbol: StatusSymbol }> = {
  ok: { word: 'OK', symbol: 'ok' },
  ready: { word: 'OK', symbol: 'ok' },
  busy: { word: 'BUSY', symbol: 'busy' },
  warning: { word: 'WARNING', symbol: 'warning' },
  error: { word: 'ERROR', symbol: 'error' },
  // The session reports the machine offline: its word, never our link's NO LINK.
  offline: { word: 'OFFLINE', symbol: 'machine-offline' },
};

/** The worst severity as a word and a symbol on its colour, under the scope it is the worst of. */
export function healthFace(reading: HealthReading): string {
  const background = severityColour(reading.severity);
  const ink = inkOn(background);
  const { word, symbol } = SEVERITY_SIGNS[reading.severity];
  return keyFace({
    background,
    symbol: { shape: symbol, colour: ink },
    name: { text: reading.scope, size: 22, colour: ink },
    state: { text: word, size: 30, colour: ink, bold: true },
  });
}
