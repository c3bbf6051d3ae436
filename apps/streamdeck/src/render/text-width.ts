/**
 * How wide a line of text is in Arial, the one font family of the key faces. Key images are SVG drawn by the
 * Stream Deck app, so nothing can measure text at run time: the faces fit their lines with these advance
 * widths, and the tests check the fit with the same numbers. Arial shares its advance widths with Helvetica,
 * given here in thousandths of the font size for printable ASCII; any other character counts as wider than
 * any Arial glyph, so a line that "fits" here fits on the key.
 */

/** Advance widths of the characters from space (32) to tilde (126), in order. */
const REGULAR = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space to /
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0 to ?
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ to O
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P to _
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` to o
  556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p to ~
];

const BOLD = [
  278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
  975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
  333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
  611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
];

/** The few characters beyond ASCII the faces write themselves. */
const EXTRA: Record<string, number> = {
  '\u2026': 1000, // the ellipsis of a shortened name
  '\u00b7': 278, // the middle dot between a track and its section
  '\u2192': 1000, // the arrow of "go to" commands
};

/** Wider than any glyph of Arial (its widest, @, is 1015): names in other scripts are never underestimated. */
const UNKNOWN = 1100;

function advance(char: string, bold: boolean): number {
  const code = char.codePointAt(0) ?? 0;
  const table = bold ? BOLD : REGULAR;
  if (code >= 32 && code <= 126) return table[code - 32] ?? UNKNOWN;
  return EXTRA[char] ?? UNKNOWN;
}

/** The narrowest glyph of either weight: no line of `n` characters is narrower than `n` of it. */
const NARROWEST = Math.min(...REGULAR, ...BOLD);

/**
 * The most characters any text drawn at `size` can have and still be at most `width` wide: the count beyond which
 * measuring is pointless. Names come from settings and servers and may be any length; fitting them to a key
 * looks at this many characters of each end, never at the whole of a long one.
 */
export function mostCharsWithin(width: number, size: number): number {
  return Math.floor((width * 1000) / (NARROWEST * size));
}

/** The width in pixels of `text` drawn at `size` pixels. */
export function textWidth(text: string, size: number, bold = false): number {
  return (textUnits(text, bold) * size) / 1000;
}

/** The width of `text` in thousandths of the font size: whole numbers, exact when added up. */
export function textUnits(text: string, bold = false): number {
  let units = 0;
  for (const char of text) units += advance(char, bold);
  return units;
}
