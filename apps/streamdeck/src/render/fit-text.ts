/**
 * Fitting a line of text across a key. A line shrinks, down to the smallest size a 72 px key still shows
 * clearly, and bold text turns regular there; a name that is still too long is shortened with an ellipsis. The state words of the faces are
 * chosen to fit at that size, so only names are ever shortened.
 *
 * Names come from settings and servers and may be of any length (a million characters is a setting like any
 * other). Only as many characters of each end as a line could ever hold are looked at, so fitting a name costs a
 * key no more than a long name does, however long it is: a key face is drawn again on every poll.
 */
import { KEY_SIZE } from './svg.js';
import { mostCharsWithin, textUnits, textWidth } from './text-width.js';

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
  // A shortened line keeps at most this many characters: one more, with the ellipsis, is wider than the line
  // even if a space beside the ellipsis is dropped.
  const kept = mostCharsWithin(width, MIN_TEXT_SIZE) + 1;
  const start = lineStart(content, kept);
  if (start.rest !== undefined) return { text: ellipsize(start.chars, lineEnd(content, kept), kept, MIN_TEXT_SIZE, width), size: MIN_TEXT_SIZE, bold: false };
  const clean = start.chars.join('');
  for (let size = maxSize; size >= MIN_TEXT_SIZE; size -= 1) {
    if (textWidth(clean, size, bold) <= width) return { text: clean, size, bold };
  }
  if (textWidth(clean, MIN_TEXT_SIZE) <= width) return { text: clean, size: MIN_TEXT_SIZE, bold: false };
  return { text: ellipsize(start.chars, start.chars, start.chars.length - 1, MIN_TEXT_SIZE, width), size: MIN_TEXT_SIZE, bold: false };
}

/** Whether `content` fits one line whole, at the smallest size at least. */
export function fitsOnOneLine(content: string, bold = false, width = LINE_WIDTH): boolean {
  const start = lineStart(content, mostCharsWithin(width, MIN_TEXT_SIZE));
  return start.rest === undefined && textWidth(start.chars.join(''), MIN_TEXT_SIZE, bold) <= width;
}

/**
 * `content` split at a space into two lines as even as can be ("Intro:" over "Section 2", not "Intro: Section"
 * over "2"), the first fitting at the smallest size; undefined when no start of it fits. The second line may
 * still need fitting (fitLine).
 */
export function splitInTwo(content: string, bold = false, width = LINE_WIDTH): [string, string] | undefined {
  const most = mostCharsWithin(width, MIN_TEXT_SIZE);
  // Past this many characters the second line is wider than a line after any split whose first line fits: the
  // most even split is then the one with the fullest first line, and the rest of the name needs no measuring.
  const start = lineStart(content, 2 * most + 1);
  const long = start.rest !== undefined;
  const words = start.chars.join('').split(' ');
  // Widths in the font's units, added up word by word: each word is measured once, not once per split.
  const units = words.map((word) => textUnits(word, bold));
  const space = textUnits(' ', bold);
  const total = units.reduce((sum, word) => sum + word, 0) + space * (words.length - 1);
  let best: { count: number; widest: number } | undefined;
  let first = -space;
  for (let count = 1; count < words.length; count += 1) {
    first += space + (units[count - 1] ?? 0);
    if ((first * MIN_TEXT_SIZE) / 1000 > width) break;
    const widest = long ? -first : Math.max(first, total - first - space);
    if (!best || widest < best.widest) best = { count, widest };
  }
  if (!best) return undefined;
  const rest = words.slice(best.count).join(' ');
  return [words.slice(0, best.count).join(' '), long ? rest + content.slice(start.rest) : rest];
}

const WHITE_SPACE = /^\s$/;
const WHITE_SPACE_RUN = /\s+/y;

interface LineStart {
  /** The first characters of `content` as one line: runs of white space as one space, none leading or trailing. */
  chars: string[];
  /** Where the rest of `content` begins when it has more than was asked for; undefined when `chars` is all of it. */
  rest: number | undefined;
}

/** At most `count` characters of the start of `content` as one line, looking no further than those. */
function lineStart(content: string, count: number): LineStart {
  const chars: string[] = [];
  let space = false;
  let taken = 0;
  let index = 0;
  while (index < content.length) {
    WHITE_SPACE_RUN.lastIndex = index;
    if (WHITE_SPACE_RUN.test(content)) {
      index = WHITE_SPACE_RUN.lastIndex;
      space = chars.length > 0;
      continue;
    }
    const char = String.fromCodePoint(content.codePointAt(index) ?? 0);
    if (chars.length + (space ? 2 : 1) > count) return { chars, rest: taken };
    if (space) chars.push(' ');
    chars.push(char);
    space = false;
    index += char.length;
    taken = index;
  }
  return { chars, rest: undefined };
}

/** At most `count` characters of the end of `content` as one line (as lineStart), looking no further than those. */
function lineEnd(content: string, count: number): string[] {
  const reversed: string[] = [];
  let space = false;
  for (let index = content.length; index > 0; ) {
    let from = index - 1;
    if (isLowSurrogate(content.charCodeAt(from)) && from > 0 && isHighSurrogate(content.charCodeAt(from - 1))) from -= 1;
    const char = content.slice(from, index);
    index = from;
    if (WHITE_SPACE.test(char)) {
      space = reversed.length > 0;
      continue;
    }
    if (reversed.length + (space ? 2 : 1) > count) break;
    if (space) reversed.push(' ');
    reversed.push(char);
    space = false;
  }
  return reversed.reverse();
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The most of a line that fits with an ellipsis in its middle: names of one show often differ only at the end
 * (ACTOR01, ACTOR02; Finale: Section 2, Finale: Section 3), so both ends stay. `head` and `tail` are the line's
 * first and last characters (half of `most` at least), and at most `most` of them are kept.
 */
function ellipsize(head: readonly string[], tail: readonly string[], most: number, size: number, width: number): string {
  for (let kept = most; kept > 0; kept -= 1) {
    const start = head.slice(0, Math.ceil(kept / 2)).join('').trimEnd();
    const end = tail.slice(tail.length - Math.floor(kept / 2)).join('').trimStart();
    const shortened = `${start}\u2026${end}`;
    if (textWidth(shortened, size) <= width) return shortened;
  }
  return '\u2026';
}
