/**
 * What the touch strip above a show clock dial shows, in the item keys of layouts/clock.json: the transport and
 * what the clock counts on top (`main · SECTION 2`), the digits large, and a bar of how far the playhead is
 * through it. Without a live clock the large slot holds the state word instead (STALE, NO LINK, ...), never a
 * number. Every feedback sets every property it may change (colour, background, font), so a frame never
 * inherits the look of the one before. The strip is black: each colour reads at 4.5:1 or better on it, and the
 * lit half of a flash is black on orange.
 */
import type { ClockView } from './clock-view.js';
import { STRIP_COLOURS, type StripText } from './level-feedback.js';
import { CLOCK_KEY_NAME } from './clock-face.js';

export const CLOCK_STRIP_COLOURS = {
  ...STRIP_COLOURS,
  background: '#000000',
  /** Under the warning threshold, and the lit half of a flash. */
  warn: '#e69f00',
  /** Text on the lit half of a flash. */
  ink: '#000000',
  /** STALE: the clock stopped being live, not a fault to fix here. */
  stale: '#e69f00',
} as const;

/** The layout's sizes: digits large; a state word smaller, so the longest (CONNECTING) fits the slot. */
export const CLOCK_STRIP_FONT = { digits: 32, word: 24 } as const;

/** Exactly the items of layouts/clock.json. */
export interface ClockFeedback {
  section: StripText;
  remaining: StripText & { background: string; font: { size: number; weight: number } };
  progress: { value: number; opacity: number; bar_fill_c: string };
}

const DIM_BAR = { value: 0, opacity: 0.2, bar_fill_c: STRIP_COLOURS.text };

export function clockFeedback(view: ClockView): ClockFeedback {
  switch (view.kind) {
    case 'clock':
      return countingFeedback(view);
    case 'stale':
      return wordFeedback(view.transport, 'STALE', CLOCK_STRIP_COLOURS.stale);
    case 'noLink':
      return wordFeedback(view.transport, 'NO LINK', STRIP_COLOURS.problem);
    case 'waiting':
      return wordFeedback(view.transport, view.reason === 'no data' ? 'NO DATA' : view.reason === 'loading' ? 'LOADING' : 'CONNECTING', STRIP_COLOURS.quiet);
    case 'largeAnswersFail':
      return wordFeedback(view.transport, 'MTU?', STRIP_COLOURS.problem);
    case 'problem':
      return wordFeedback(view.transport, 'PROBLEM', STRIP_COLOURS.problem);
    case 'setup':
      return wordFeedback(view.transport ?? CLOCK_KEY_NAME, 'SET UP', STRIP_COLOURS.problem);
  }
}

function countingFeedback(view: Extract<ClockView, { kind: 'clock' }>): ClockFeedback {
  const alerting = view.alert !== 'none';
  const digits = view.lit
    ? { color: CLOCK_STRIP_COLOURS.ink, background: CLOCK_STRIP_COLOURS.warn }
    : { color: alerting ? CLOCK_STRIP_COLOURS.warn : STRIP_COLOURS.text, background: CLOCK_STRIP_COLOURS.background };
  return {
    section: { value: `${view.transport} \u00b7 ${view.label}`, color: STRIP_COLOURS.text },
    remaining: { value: view.digits, ...digits, font: { size: CLOCK_STRIP_FONT.digits, weight: 700 } },
    progress: { value: Math.round(view.progress * 1000) / 10, opacity: 1, bar_fill_c: alerting ? CLOCK_STRIP_COLOURS.warn : STRIP_COLOURS.text },
  };
}

function wordFeedback(transport: string, word: string, colour: string): ClockFeedback {
  return {
    section: { value: transport, color: STRIP_COLOURS.text },
    remaining: { value: word, color: colour, background: CLOCK_STRIP_COLOURS.background, font: { size: CLOCK_STRIP_FONT.word, weight: 700 } },
    progress: DIM_BAR,
  };
}
