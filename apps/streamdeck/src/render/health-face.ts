import { hardwareFaultWord, type HardwareSnapshot, type Severity } from '@stagelink/core';
import { keyFace } from './key-layout.js';
import { inkOn, severityColour } from './palette.js';
import type { StatusSymbol } from './symbols.js';

export interface HealthReading {
  /** `SESSION` or the machine's hostname. */
  scope: string;
  severity: Severity;
  /** A hardware fault of the machine (or the worst of the session's machines), shown above the scope. */
  hardware?: HardwareSign;
}

/** A hardware fault as a key shows it: core's word (FAN, HOT, POWER, OUTPUT, OFFLINE, STALE) and its severity. */
export interface HardwareSign {
  word: string;
  severity: Extract<Severity, 'warning' | 'error' | 'offline'>;
  /** The machine it is about, for the plugin log. */
  machine: string;
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
  const fault = reading.hardware;
  const bannerFill = fault ? severityColour(fault.severity) : undefined;
  return keyFace({
    background,
    symbol: { shape: symbol, colour: ink },
    ...(fault && bannerFill ? { banner: { text: fault.word, fill: bannerFill, colour: inkOn(bannerFill), outline: ink } } : {}),
    name: { text: reading.scope, size: 22, colour: ink },
    state: { text: word, size: 30, colour: ink, bold: true },
  });
}

/** How bad a snapshot is: an SMC that does not answer is worse than any reading, as Prometheus counts it. */
function hardwareRank(snapshot: HardwareSnapshot): number {
  if (snapshot.status === 'offline') return 3;
  return snapshot.severity === 'error' ? 2 : snapshot.severity === 'warning' ? 1 : 0;
}

/**
 * The hardware fault a health key shows for these machines' latest snapshots: the worst one's, or undefined when
 * every machine is ok (or none has been read yet). An SMC that stopped answering is OFFLINE, never its last reading.
 */
export function hardwareSignOf(snapshots: Iterable<HardwareSnapshot>): HardwareSign | undefined {
  let worst: HardwareSnapshot | undefined;
  for (const snapshot of snapshots) if (hardwareRank(snapshot) > (worst ? hardwareRank(worst) : 0)) worst = snapshot;
  if (!worst) return undefined;
  const severity = worst.status === 'offline' ? 'offline' : worst.severity === 'error' ? 'error' : 'warning';
  return { word: hardwareFaultWord(worst), severity, machine: worst.machine };
}
