/**
 * Fitting a line of text across a key. A line shrinks, down to the smallest size a 72 px key still shows
 * clearly, and bold text turns regular there; a name that is still too long is shortened with an ellipsis. The state words of the faces are
 * chosen to fit at that size, so only names are ever shortened.
 */
import { KEY_SIZE } from './svg.js';
import { textWidth } from './text-width.js';

/** 20 px on the 144 px canvas is 10 px on a standard 72 px key. */
export const MIN_TEXT_SIZE = 20;
/** Text keeps clear of the key's rounded edge by this much on each side. */
export const TEXT_MARGIN = 4;
export const LINE_WIDTH = KEY_SIZE - 2 * TEXT_MARGIN;

export interface FittedLine {
  text: string;
  size: number;
  bold: boolean;
}

export function fitLine(content: string, maxSize: number, bold = false, width = LINE_WIDTH): FittedLine {
  const clean = content.replace(/\s+/g, ' ').trim();
  for (let size = maxSize; size >= MIN_TEXT_SIZE; size -= 1) {
    if (textWidth(clean, size, bold) <= width) return { text: clean, size, bold };
  }
  if (textWidth(clean, MIN_TEXT_SIZE) <= width) return { text: clean, size: MIN_TEXT_SIZE, bold: false };
  return { text: ellipsize(clean, MIN_TEXT_SIZE, false, width), size: MIN_TEXT_SIZE, bold: false };
}

/** Whether `content` fits one line whole, at the smallest size at least. */
export function fitsOnOneLine(content: string, bold = false, width = LINE_WIDTH): boolean {
  return textWidth(content.replace(/\s+/g, ' ').trim(), MIN_TEXT_SIZE, bold) <= width;
}

/**
 * `content` split at a space into two lines as even as can be ("Intro:" over "Section 2", not "Intro: Section"
 * over "2"), the first fitting at the smallest size; undefined when no start of it fits. The second line may
 * still need shortening.
 */
export function splitInTwo(content: string, bold = false, width = LINE_WIDTH): [string, string] | undefined {
  const words = content.replace(/\s+/g, ' ').trim().split(' ');
  let best: { lines: [string, string]; widest: number } | undefined;
  for (let count = 1; count < words.length; count += 1) {
    const lines: [string, string] = [words.slice(0, count).join(' '), words.slice(count).join(' ')];
    if (!fitsOnOneLine(lines[0], bold, width)) break;
    const widest = Math.max(...lines.map((line) => textWidth(line, MIN_TEXT_SIZE, bold)));
    if (!best || widest < best.widest) best = { lines, widest };
  }
  return best?.lines;
}

/**
 * The most of `content` that fits with an ellipsis in its middle: names of one show often differ only at the
 * end (ACTOR01, ACTOR02; Finale: Section 2, Finale: Section 3), so both ends stay.
 */
function ellipsize(content: string, size: number, bold: boolean, width: number): string {
  const chars = [...content];
  for (let kept = chars.length - 1; kept > 0; kept -= 1) {
    const head = chars.slice(0, Math.ceil(kept / 2)).join('').trimEnd();
    const tail = chars.slice(chars.length - Math.floor(kept / 2)).join('').trimStart();
    const shortened = `${head}\u2026${tail}`;
    if (textWidth(shortened, size, bold) <= width) return shortened;
  }
  return '\u2026';
}
