import type { LateOutcome } from '@stagelink/core';
import { fitsOnOneLine, splitInTwo } from './fit-text.js';
import { keyFace, type FaceLine } from './key-layout.js';
import { inkOn, palette } from './palette.js';
import type { StatusSymbol } from './symbols.js';

/**
 * What the transport key knows about its transport, from the shared, gently polled transport list;
 * `large-answers-fail` when the list's answer stops part way (the server is up: cues still go).
 */
export type TransportActivity = 'playing' | 'stopped' | 'unknown' | 'missing' | 'no-link' | 'large-answers-fail';

export interface CueView {
  /** The command in words: PLAY, GO TO TRACK, ... */
  command: string;
  /** The cue's name: the track, section, note, time, ... or the transport for plain commands. */
  name: string;
  transport: string;
  activity: TransportActivity;
  /** For an engage key: whether the transport is engaged now (undefined when unknown). */
  engaged?: boolean;
  /** A cue of this key is still on its way to the server. */
  sending?: boolean;
  /** The operator gave the key a title, which the Stream Deck app draws at its top: the symbol's place is left to it. */
  titled?: boolean;
}

/** A state the key has something to say about: its word, its symbol, and the word's colour on a dark face. */
interface CueState {
  word: string;
  symbol: StatusSymbol;
  colour: string;
}

const SENDING: CueState = { word: 'SENDING\u2026', symbol: 'sending', colour: palette.text };
const ENGAGED: CueState = { word: 'ENGAGED', symbol: 'engaged', colour: palette.text };
const DISENGAGED: CueState = { word: 'DISENGAGED', symbol: 'disengaged', colour: palette.caution };

const ACTIVITY_STATES: Record<TransportActivity, CueState | undefined> = {
  playing: { word: 'PLAYING', symbol: 'playing', colour: palette.text },
  stopped: undefined,
  unknown: undefined,
  missing: { word: 'NOT FOUND', symbol: 'not-found', colour: palette.caution },
  'no-link': { word: 'NO LINK', symbol: 'no-link', colour: palette.text },
  'large-answers-fail': { word: 'MTU?', symbol: 'cut-short', colour: palette.caution },
};

/**
 * The command as a key shows it, whole on one line at the smallest size: "go to" is always the arrow, so every
 * go-to key reads alike, and SECTION is shortened where the command would not fit otherwise.
 */
export function commandWord(command: string): string {
  const word = command.replace(/^GO TO /, '\u2192 ');
  return fitsOnOneLine(word, true) ? word : word.replace(/\bSECTION\b/, 'SECT.');
}

/**
 * The cue on top and, under it, the state of its transport when there is one to tell. Green with a play mark
 * while the transport plays; the grey link face while the server cannot be reached.
 */
export function cueFace(view: CueView): string {
  const state = stateOf(view);
  const background = view.activity === 'no-link' ? palette.noLink : view.activity === 'playing' ? palette.playing : palette.neutral;
  const ink = inkOn(background);
  const [top, bottom] = state ? [cueLine(view, ink), stateLine(state, background, ink)] : idleLines(view, ink);
  return keyFace({
    background,
    ...(state && !view.titled ? { symbol: { shape: state.symbol, colour: bottom.colour } } : {}),
    name: top,
    state: bottom,
  });
}

/**
 * What the latest cue of a key did, when it is worth telling for a few seconds after (see keyOutcomeOf): its
 * answer came late and core read the transport again, which shows the cue's state there (`landed`); it may have
 * reached the server and nobody can tell whether it played (`unknown`: a late answer the re-read cannot judge, or
 * no answer at all); or it provably never left (`not-sent`: it waited too long behind other cues, the director was
 * not found in time, the transport is not on the server). Both lines say it, as the words do not fit one: LANDED
 * over LATE, OUTCOME over UNKNOWN, NOT over SENT. The log names the cue and why.
 */
export type KeyOutcome = LateOutcome | 'not-sent';

const OUTCOME_WORDS: Record<KeyOutcome, [string, string, StatusSymbol]> = {
  landed: ['LANDED', 'LATE', 'ok'],
  unknown: ['OUTCOME', 'UNKNOWN', 'unknown'],
  'not-sent': ['NOT', 'SENT', 'warning'],
};

export function lateCueFace(outcome: KeyOutcome, titled = false): string {
  const [top, bottom, symbol] = OUTCOME_WORDS[outcome];
  return keyFace({
    background: palette.neutral,
    ...(titled ? {} : { symbol: { shape: symbol, colour: palette.caution } }),
    name: { text: top, size: 24, colour: palette.text, bold: true },
    state: { text: bottom, size: 26, colour: palette.caution, bold: true },
  });
}

/**
 * The state word of a cue key, for its title when the operator's own icon hides the face (undefined: nothing to
 * tell; the cue is idle).
 */
export function cueStateWord(view: CueView): string | undefined {
  return stateOf(view)?.word.replace('\u2026', '');
}

/** A late cue's outcome in words, two lines as the title shows them. */
export function outcomeWords(outcome: KeyOutcome): string {
  const [top, bottom] = OUTCOME_WORDS[outcome];
  return `${top}\n${bottom}`;
}

function stateOf(view: CueView): CueState | undefined {
  if (view.sending) return SENDING;
  if (view.engaged === undefined || view.activity === 'no-link') return ACTIVITY_STATES[view.activity];
  return view.engaged ? ENGAGED : DISENGAGED;
}

const isPlain = (view: CueView): boolean => view.name === view.transport;

/** The cue: its name, or its command where the name is only the transport. */
function cueLine(view: CueView, ink: string): FaceLine {
  return { text: isPlain(view) ? commandWord(view.command) : view.name, size: 24, colour: ink, bold: true };
}

function stateLine(state: CueState, background: string, ink: string): FaceLine {
  return { text: state.word, size: 26, colour: background === palette.neutral ? state.colour : ink, bold: true };
}

/** With no state to tell, the bottom line says what the top one leaves out, or carries the rest of a long name. */
function idleLines(view: CueView, ink: string): [FaceLine, FaceLine] {
  const top = cueLine(view, ink);
  const aside = (text: string): FaceLine => ({ text, size: 20, colour: palette.muted });
  if (isPlain(view)) return [top, aside(view.transport)];
  const halves = fitsOnOneLine(view.name, true) ? undefined : splitInTwo(view.name, true);
  return halves ? [{ ...top, text: halves[0] }, { ...top, text: halves[1] }] : [top, aside(commandWord(view.command))];
}
