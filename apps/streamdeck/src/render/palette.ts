import type { FpsAlert, Severity } from '@stagelink/core';
import { contrastRatio } from './contrast.js';

/**
 * The Okabe-Ito colours: chosen to stay apart under the common colour-vision deficiencies, where the usual
 * green and red look alike. Colour is never the only sign: every state also has its word and its symbol.
 */
const okabeIto = {
  orange: '#e69f00',
  skyBlue: '#56b4e9',
  bluishGreen: '#009e73',
  yellow: '#f0e442',
  vermillion: '#d55e00',
  reddishPurple: '#cc79a7',
} as const;

/** Colours of the key faces: one meaning each, the same on every key. */
export const palette = {
  text: '#ffffff',
  /** Text and symbols on the light Okabe-Ito backgrounds, where white would be too faint. */
  ink: '#000000',
  muted: '#9aa3ab',
  ok: okabeIto.bluishGreen,
  warning: okabeIto.orange,
  error: okabeIto.vermillion,
  busy: okabeIto.skyBlue,
  /** A machine the session reports offline (a severity, not our link). */
  machineOffline: okabeIto.reddishPurple,
  /** Our own link to the server is down: nothing on the key is live. */
  noLink: '#4a4f55',
  neutral: '#2b3036',
  playing: okabeIto.bluishGreen,
  /** A key that needs the operator: SET UP. */
  attention: okabeIto.yellow,
  /** A state word on a dark face that asks for a look: NOT FOUND, DISENGAGED. */
  caution: okabeIto.orange,
} as const;

/** White or black, whichever reads better on `background`. */
export function inkOn(background: string): string {
  return contrastRatio(palette.text, background) >= contrastRatio(palette.ink, background) ? palette.text : palette.ink;
}

const SEVERITY_COLOURS: Record<Severity, string> = {
  ok: palette.ok,
  ready: palette.ok,
  busy: palette.busy,
  warning: palette.warning,
  error: palette.error,
  offline: palette.machineOffline,
};

export function severityColour(severity: Severity): string {
  return SEVERITY_COLOURS[severity];
}

/** An FPS alert level is coloured as the severity of the same name; without a target there is none. */
export function fpsAlertColour(alert: FpsAlert | 'none'): string {
  return alert === 'none' ? palette.neutral : severityColour(alert);
}
