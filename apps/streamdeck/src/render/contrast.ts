/**
 * Contrast between two colours as WCAG 2 defines it (from 1:1 to 21:1). Text on a key face needs at least
 * 4.5:1 against its background to stay readable on a 72 px key in a dark control room.
 */

export const MIN_TEXT_CONTRAST = 4.5;

/** Relative luminance of a `#rrggbb` colour. */
export function luminance(colour: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (!match) throw new Error(`"${colour}" is not a #rrggbb colour.`);
  const [red, green, blue] = match.slice(1).map((hex) => linear(parseInt(hex, 16) / 255)) as [number, number, number];
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}

function linear(channel: number): number {
  return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
}

export function contrastRatio(one: string, other: string): number {
  const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
