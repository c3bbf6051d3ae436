/**
 * What the touch strip above a level dial shows, in the item keys of layouts/level.json: the transport on top,
 * the level large with a short state word beside it, and a bar under them. A dial's strip is 200 x 100 px, so
 * every word here is short enough for its slot at the layout's font size; sentences go to the log instead.
 * Volume and brightness run from 0 to 1 and are shown as percentages, to a tenth where a fine turn left one.
 * The strip's background is black: each colour below reads at 4.5:1 or better on it, and each state has its
 * own word, so none is told by colour alone.
 */

export type LevelProperty = 'volume' | 'brightness';

export type LevelView =
  /** The level as the server has it (or as the dial is setting it); `sending` once a write is slow to land. */
  | { kind: 'value'; property: LevelProperty; transport: string; value: number; sending: boolean }
  /** Nothing reaches us from the server: no value is shown as if it were live. */
  | { kind: 'noLink'; property: LevelProperty; transport: string }
  /** The first value has not come yet. */
  | { kind: 'waiting'; property: LevelProperty; transport: string }
  /** The server answers, but its transport list stops part way (MTU?): no value to show, though cues still go. */
  | { kind: 'largeAnswersFail'; property: LevelProperty; transport: string }
  /** The server has no transport of that name. */
  | { kind: 'missing'; property: LevelProperty; transport: string }
  /** The dial's settings are incomplete; what to set is in the log and the inspector. */
  | { kind: 'setup'; transport: string | undefined };

/** One text item of the layout: its words and their colour. */
export interface StripText {
  value: string;
  color: string;
}

/** Exactly the items of layouts/level.json. */
export interface LevelFeedback {
  transport: string;
  value: string;
  state: StripText;
  level: { value: number; opacity: number };
}

export const STRIP_COLOURS = {
  text: '#ffffff',
  /** The property's name, when there is nothing more to say. */
  quiet: '#a7b0b8',
  /** Muted or blacked out: the show is dark or silent on purpose. */
  off: '#e69f00',
  sending: '#56b4e9',
  /** Something the operator has to fix: no link, large answers failing, no such transport, settings missing. */
  problem: '#d55e00',
} as const;

const NO_VALUE = '--';
const DIM_BAR = { value: 0, opacity: 0.2 };

export function levelFeedback(view: LevelView): LevelFeedback {
  switch (view.kind) {
    case 'value':
      return {
        transport: view.transport,
        value: levelText(view.value),
        state: valueState(view.property, view.value, view.sending),
        level: { value: percentOf(view.value), opacity: 1 },
      };
    case 'noLink':
      return { transport: view.transport, value: NO_VALUE, state: { value: 'NO LINK', color: STRIP_COLOURS.problem }, level: DIM_BAR };
    case 'waiting':
      return { transport: view.transport, value: NO_VALUE, state: { value: propertyWord(view.property), color: STRIP_COLOURS.quiet }, level: DIM_BAR };
    case 'largeAnswersFail':
      return { transport: view.transport, value: NO_VALUE, state: { value: 'MTU?', color: STRIP_COLOURS.problem }, level: DIM_BAR };
    case 'missing':
      return { transport: view.transport, value: NO_VALUE, state: { value: 'NOT FOUND', color: STRIP_COLOURS.problem }, level: DIM_BAR };
    case 'setup':
      return { transport: view.transport ?? 'Level dial', value: NO_VALUE, state: { value: 'SET UP', color: STRIP_COLOURS.problem }, level: DIM_BAR };
  }
}

/** The state word beside a live value: SENDING while a write is slow, else MUTED or BLACKOUT at 0. */
function valueState(property: LevelProperty, value: number, sending: boolean): StripText {
  if (sending) return { value: 'SENDING', color: STRIP_COLOURS.sending };
  if (percentOf(value) === 0) return { value: property === 'volume' ? 'MUTED' : 'BLACKOUT', color: STRIP_COLOURS.off };
  return { value: propertyWord(property), color: STRIP_COLOURS.quiet };
}

function propertyWord(property: LevelProperty): string {
  return property === 'volume' ? 'VOLUME' : 'BRIGHTNESS';
}

/** 0 to 100, to a tenth: a fine turn moves the level by a tenth of a percent at the default step. */
export function percentOf(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 1000) / 10;
}

/** `83%`, or `83.4%` after a fine turn. */
export function levelText(value: number): string {
  return `${percentOf(value)}%`;
}
