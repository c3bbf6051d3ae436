import type { FpsAlert, Severity } from '@stagelink/core';

/** Colours of the key faces: one meaning each, the same on every key. */
export const palette = {
  background: '#101214',
  text: '#ffffff',
  muted: '#9aa3ab',
  ok: '#1f9d55',
  warning: '#e3a008',
  error: '#d62d20',
  busy: '#2f6fd6',
  /** A machine the session reports offline (a severity, not our link). */
  machineOffline: '#7a1f6b',
  /** Our own link to the server is down: nothing on the key is live. */
  noLink: '#4a4f55',
  neutral: '#2b3036',
  playing: '#1f9d55',
} as const;

export function severityColour(severity: Severity): string {
  switch (severity) {
    case 'ok':
    case 'ready':
      return palette.ok;
    case 'busy':
      return palette.busy;
    case 'warning':
      return palette.warning;
    case 'error':
      return palette.error;
    case 'offline':
      return palette.machineOffline;
  }
}

export function fpsAlertColour(alert: FpsAlert | 'none'): string {
  switch (alert) {
    case 'ok':
      return palette.ok;
    case 'warning':
      return palette.warning;
    case 'error':
      return palette.error;
    case 'none':
      return palette.neutral;
  }
}
