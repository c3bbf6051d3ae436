/**
 * Faces every kind of key shares: the link to the server is down, the key's live value stopped, large answers
 * do not get through, the key is waiting for its first value, it is not set up, or the server answered with
 * something it cannot use. None of them ever shows a number, so nothing stale can pass for live; what exactly
 * went wrong is in the plugin log and the settings page.
 */
import { keyFace } from './key-layout.js';
import { palette } from './palette.js';
import type { StatusSymbol } from './symbols.js';

/**
 * The look every shared face has: the key's name in white over a bold state word, on a dark background, with
 * the symbol in the word's colour.
 */
function sharedFace(name: string, look: { background: string; symbol: StatusSymbol; word: string; size: number; colour: string }): string {
  return keyFace({
    background: look.background,
    symbol: { shape: look.symbol, colour: look.colour },
    name: { text: name, size: 22, colour: palette.text },
    state: { text: look.word, size: look.size, colour: look.colour, bold: true },
  });
}

/** Our link to the media server is down: the same face on every key, whatever the key shows otherwise. */
export function noLinkFace(name: string): string {
  return sharedFace(name, { background: palette.noLink, symbol: 'no-link', word: 'NO LINK', size: 28, colour: palette.text });
}

/**
 * The link is up, but this key's live value stopped coming and asking the server again brought none (core's
 * `stale`): the last value is not shown as if it were current. Not NO LINK: other keys of the server still work.
 */
export function staleFace(name: string): string {
  return sharedFace(name, { background: palette.neutral, symbol: 'stale', word: 'STALE', size: 28, colour: palette.caution });
}

/**
 * The server answers, but large answers stop part way (core's StalledAnswerError): small requests such as cues
 * still get through, so it is not NO LINK. The usual cause is the show network's MTU (jumbo frames on only one
 * side), hence the word; the plugin log has core's whole sentence.
 */
export function largeAnswersFailFace(name: string): string {
  return sharedFace(name, { background: palette.neutral, symbol: 'cut-short', word: 'MTU?', size: 28, colour: palette.caution });
}

export type WaitingReason = 'connecting' | 'no data' | 'loading';

const WAITING_WORDS: Record<WaitingReason, string> = {
  connecting: 'CONNECTING',
  // The link is up (again) and the first value has not come yet.
  'no data': 'NO DATA',
  // The Stream Deck app has not sent the plugin's settings yet.
  loading: 'LOADING',
};

/** Connected or connecting, with no value yet: never a number. */
export function waitingFace(name: string, reason: WaitingReason): string {
  return sharedFace(name, { background: palette.neutral, symbol: 'waiting', word: WAITING_WORDS[reason], size: 26, colour: palette.muted });
}

/** The key needs something from the operator (a host, a transport, a valid value). */
export function setupFace(name: string): string {
  return sharedFace(name, { background: palette.neutral, symbol: 'set-up', word: 'SET UP', size: 28, colour: palette.attention });
}

/**
 * The director's own description lacks the key's command (a build without it): core refused the cue unsent, and
 * every press would be refused the same way until the key is set to another command. N/A, as a layer key says on
 * a director without RenderStream; the reason is in the plugin log and on the settings page.
 */
export function commandNotOfferedFace(name: string): string {
  return sharedFace(name, { background: palette.neutral, symbol: 'problem', word: 'N/A', size: 28, colour: palette.caution });
}

/** The server answered, but not with what the key asked for (unknown machine, refused request). */
export function problemFace(name: string): string {
  return sharedFace(name, { background: palette.neutral, symbol: 'problem', word: 'PROBLEM', size: 28, colour: palette.caution });
}
