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
  /**
   * A second state in the symbol's place, a word on its own colour (a health key's hardware fault): outlined in
   * the face's ink, so it stands apart even on a background of the same colour.
   */
  banner?: { text: string; fill: string; colour: string; outline: string };
  /** The machine, scope or cue the key is about. */
  name: FaceLine;
  /** The state word (or the reading) that matters most. */
  state: FaceLine;
}

const NAME_BASELINE = 84;
const STATE_BASELINE = 126;
const BANNER = { x: 8, y: 6, width: 128, height: 48, baseline: 40, size: 28 };

export function keyFace(parts: FaceParts): string {
  return keySvg(
    parts.background,
    parts.banner ? banner(parts.banner) : parts.symbol ? statusSymbol(parts.symbol.shape, parts.symbol.colour) : '',
    faceLine(parts.name, NAME_BASELINE),
    faceLine(parts.state, STATE_BASELINE),
  );
}

function faceLine(line: FaceLine, baseline: number): string {
  if (line.text.trim() === '') return '';
  const fitted = fitLine(line.text, line.size, line.bold);
  return text(fitted.text, { y: baseline, size: fitted.size, colour: line.colour, bold: fitted.bold });
}

function banner({ text: word, fill, colour, outline }: NonNullable<FaceParts['banner']>): string {
  const { x, y, width, height, baseline, size } = BANNER;
  const box = `<rect x="${x}" y="${y}" width="${width}" height="${height}" rx="8" ry="8" fill="${fill}" stroke="${outline}" stroke-width="3"/>`;
  return box + faceLine({ text: word, size, colour, bold: true }, baseline);
}
