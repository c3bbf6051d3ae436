/**
 * Faces every kind of key shares: the link to the server is down, the key is waiting for its first value, it
 * is not set up, or the server answered with something it cannot use. None of them ever shows a number, so
 * nothing stale can pass for live; what exactly went wrong is in the plugin log and the settings page.
 */
import { keyFace } from './key-layout.js';
import { palette } from './palette.js';

/** Our link to the media server is down: the same face on every key, whatever the key shows otherwise. */
export function noLinkFace(name: string): string {
  return keyFace({
    background: palette.noLink,
    symbol: { shape: 'no-link', colour: palette.text },
    name: { text: name, size: 22, colour: palette.text },
    state: { text: 'NO LINK', size: 28, colour: palette.text, bold: true },
  });
}

export type WaitingReason = 'connecting' | 'no data' | 'loading';

const WAITING_WORDS: Record<WaitingReason, string> = {
  connecting: 'CONNECTING',
  // The link is up but the values stopped coming.
  'no data': 'NO DATA',
  // The Stream Deck app has not sent the plugin's settings yet.
  loading: 'LOADING',
};

/** Connected or connecting, with no value yet: never a number. */
export function waitingFace(name: string, reason: WaitingReason): string {
  return keyFace({
    background: palette.neutral,
    symbol: { shape: 'waiting', colour: palette.muted },
    name: { text: name, size: 22, colour: palette.text },
    state: { text: WAITING_WORDS[reason], size: 26, colour: palette.muted, bold: true },
  });
}

/** The key needs something from the operator (a host, a transport, a valid value). */
export function setupFace(name: string): string {
  return keyFace({
    background: palette.neutral,
    symbol: { shape: 'set-up', colour: palette.attention },
    name: { text: name, size: 22, colour: palette.text },
    state: { text: 'SET UP', size: 28, colour: palette.attention, bold: true },
  });
}

/** The server answered, but not with what the key asked for (unknown machine, refused request). */
export function problemFace(name: string): string {
  return keyFace({
    background: palette.neutral,
    symbol: { shape: 'problem', colour: palette.caution },
    name: { text: name, size: 22, colour: palette.text },
    state: { text: 'PROBLEM', size: 28, colour: palette.caution, bold: true },
  });
}
