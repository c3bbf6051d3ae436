/**
 * The deck's colours (Okabe-Ito, apart under the common colour-vision deficiencies), as Companion colour numbers.
 * Colour is never the only sign: every state also has its word on the button.
 */
import { combineRgb } from '@companion-module/base';
import type { FpsAlert, Severity } from '@stagelink/core';

const hex = (value: string): number => combineRgb(parseInt(value.slice(1, 3), 16), parseInt(value.slice(3, 5), 16), parseInt(value.slice(5, 7), 16));

export const colours = {
  white: hex('#ffffff'),
  black: hex('#000000'),
  ok: hex('#009e73'),
  warning: hex('#e69f00'),
  error: hex('#d55e00'),
  busy: hex('#56b4e9'),
  machineOffline: hex('#cc79a7'),
  noLink: hex('#4a4f55'),
  neutral: hex('#2b3036'),
  attention: hex('#f0e442'),
} as const;

/** Background and text of a severity: black text on the light colours, white on the dark ones. */
export function severityStyle(severity: Severity | 'no link' | 'stale'): { bgcolor: number; color: number } {
  switch (severity) {
    case 'ok':
    case 'ready':
      return { bgcolor: colours.ok, color: colours.white };
    case 'busy':
      return { bgcolor: colours.busy, color: colours.black };
    case 'warning':
      return { bgcolor: colours.warning, color: colours.black };
    case 'error':
      return { bgcolor: colours.error, color: colours.white };
    case 'offline':
      return { bgcolor: colours.machineOffline, color: colours.black };
    default:
      return { bgcolor: colours.noLink, color: colours.white };
  }
}

export function fpsAlertStyle(alert: FpsAlert): { bgcolor: number; color: number } {
  return severityStyle(alert);
}

/**
 * Background and text of a RenderStream workload's state: running green, starting blue (on its way), stopped
 * neutral (stopped on purpose), error vermillion, any other state orange; grey when the state is not live.
 */
export function workloadStyle(state: string | undefined): { bgcolor: number; color: number } {
  switch (state?.toLowerCase()) {
    case undefined:
      return { bgcolor: colours.noLink, color: colours.white };
    case 'running':
      return severityStyle('ok');
    case 'starting':
      return severityStyle('busy');
    case 'stopped':
      return { bgcolor: colours.neutral, color: colours.white };
    case 'error':
      return severityStyle('error');
    default:
      return severityStyle('warning');
  }
}
