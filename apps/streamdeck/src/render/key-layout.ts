/**
 * The one layout of every key face, made for a 72 px key first: a status symbol at the top, a line naming
 * what the key is about, and the state on its own line at the bottom. Two lines of text at most, none
 * smaller than 20 px on the 144 px canvas; details go to the settings page and the plugin log.
 */
import { fitLine } from './fit-text.js';
import { statusSymbol, type StatusSymbol } from './symbols.js';
import { keySvg, text } from './svg.js';

export interface FaceLine {
  text: string;
  colour: string;
  /** The size the line takes when it fits; it shrinks to fit, down to the smallest size, where bold turns regular. */
  size: number;
  bold?: boolean;
}

export interface FaceParts {
  background: string;
  symbol?: { shape: StatusSymbol; colour: string };
  /** The machine, scope or cue the key is about. */
  name: FaceLine;
  /** The state word (or the reading) that matters most. */
  state: FaceLine;
}

const NAME_BASELINE = 84;
const STATE_BASELINE = 126;

export function keyFace(parts: FaceParts): string {
  return keySvg(
    parts.background,
    parts.symbol ? statusSymbol(parts.symbol.shape, parts.symbol.colour) : '',
    faceLine(parts.name, NAME_BASELINE),
    faceLine(parts.state, STATE_BASELINE),
  );
}

function faceLine(line: FaceLine, baseline: number): string {
  if (line.text.trim() === '') return '';
  const fitted = fitLine(line.text, line.size, line.bold);
  return text(fitted.text, { y: baseline, size: fitted.size, colour: line.colour, bold: fitted.bold });
}
