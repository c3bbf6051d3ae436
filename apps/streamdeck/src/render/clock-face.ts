/**
 * The show clock key: big digits with what they count under them, made for a 72 px key first (the digits are
 * 30 px there when they fit; a label never under 10 px). Orange under the key's warning threshold, flashing
 * between orange and the dark face under the second one. The digits themselves say that time is short, so the
 * colour is never the only sign. The states without a live clock are the faces every key shares, none with a
 * number.
 */
import type { ClockView } from './clock-view.js';
import { largeAnswersFailFace, noLinkFace, problemFace, setupFace, staleFace, waitingFace } from './faces.js';
import { fitLine } from './fit-text.js';
import { inkOn, palette } from './palette.js';
import { keySvg, text } from './svg.js';

const DIGITS = { baseline: 80, size: 60 } as const;
const LABEL = { baseline: 124, size: 24 } as const;

/** The name the shared faces give a clock key that has no transport yet. */
export const CLOCK_KEY_NAME = 'CLOCK';

export function clockFace(view: ClockView): string {
  switch (view.kind) {
    case 'clock':
      return countingFace(view);
    case 'stale':
      return staleFace(view.transport);
    case 'noLink':
      return noLinkFace(view.transport);
    case 'waiting':
      return waitingFace(view.transport, view.reason);
    case 'largeAnswersFail':
      return largeAnswersFailFace(view.transport);
    case 'problem':
      return problemFace(view.transport);
    case 'setup':
      return setupFace(view.transport ?? CLOCK_KEY_NAME);
  }
}

function countingFace(view: Extract<ClockView, { kind: 'clock' }>): string {
  const { background, digits, label } = coloursOf(view);
  const big = fitLine(view.digits, DIGITS.size, true);
  const under = fitLine(view.label, LABEL.size);
  return keySvg(
    background,
    text(big.text, { y: DIGITS.baseline, size: big.size, colour: digits, bold: big.bold }),
    text(under.text, { y: LABEL.baseline, size: under.size, colour: label, bold: under.bold }),
  );
}

function coloursOf(view: Extract<ClockView, { kind: 'clock' }>): { background: string; digits: string; label: string } {
  if (view.lit) {
    const ink = inkOn(palette.warning);
    return { background: palette.warning, digits: ink, label: ink };
  }
  // The dark half of a flash keeps the digits orange, so the key reads as one alert that blinks.
  if (view.alert === 'flash') return { background: palette.neutral, digits: palette.caution, label: palette.text };
  return { background: palette.neutral, digits: palette.text, label: palette.muted };
}
