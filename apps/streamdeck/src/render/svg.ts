/**
 * The few SVG pieces the key faces are made of. The Stream Deck app draws SVG with a limited renderer: one
 * font family per text element, plain shapes, a 144x144 canvas for keys (notes/toolchain.md).
 */

export const KEY_SIZE = 144;
/** One family, present on every macOS and Windows desk machine. */
export const FONT_FAMILY = 'Arial';

export interface TextSpec {
  x?: number;
  y: number;
  size: number;
  colour: string;
  bold?: boolean;
  anchor?: 'start' | 'middle' | 'end';
}

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * Shortens text to what fits `width` pixels at `size`, with an ellipsis. Arial averages a little over half
 * its size per character; bold and capitals run wider, so this errs on the short side.
 */
export function fitText(text: string, size: number, width = KEY_SIZE - 12): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const maxChars = Math.max(1, Math.floor(width / (size * 0.6)));
  if (clean.length <= maxChars) return clean;
  return `${clean.slice(0, Math.max(1, maxChars - 1)).trimEnd()}\u2026`;
}

/**
 * Splits text into at most `maxLines` lines that fit at `size`, breaking at spaces where it can; the last
 * line carries an ellipsis when text is left over.
 */
export function wrapText(content: string, size: number, maxLines: number, width = KEY_SIZE - 12): string[] {
  const maxChars = Math.max(1, Math.floor(width / (size * 0.6)));
  const words = content.replace(/\s+/g, ' ').trim().split(' ').filter((word) => word !== '');
  const lines: string[] = [];
  let current = '';
  for (const word of words) {
    const candidate = current === '' ? word : `${current} ${word}`;
    if (candidate.length <= maxChars) {
      current = candidate;
      continue;
    }
    if (current !== '') lines.push(current);
    current = word;
  }
  if (current !== '') lines.push(current);
  if (lines.length <= maxLines) return lines.map((line) => fitText(line, size, width));
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = fitText(`${kept[maxLines - 1] ?? ''} ${lines.slice(maxLines).join(' ')}`, size, width);
  return kept;
}

/** Text centred as a block of lines around `centreY`. */
export function textBlock(lines: readonly string[], spec: Omit<TextSpec, 'y'> & { centreY: number; lineHeight?: number }): string {
  const lineHeight = spec.lineHeight ?? Math.round(spec.size * 1.15);
  const firstBaseline = spec.centreY - ((lines.length - 1) * lineHeight) / 2 + spec.size * 0.35;
  return lines.map((line, index) => text(line, { ...spec, y: Math.round(firstBaseline + index * lineHeight) })).join('');
}

export function text(content: string, spec: TextSpec): string {
  const weight = spec.bold ? ' font-weight="bold"' : '';
  return (
    `<text x="${spec.x ?? KEY_SIZE / 2}" y="${spec.y}" font-family="${FONT_FAMILY}" font-size="${spec.size}"${weight} ` +
    `fill="${spec.colour}" text-anchor="${spec.anchor ?? 'middle'}">${escapeXml(fitText(content, spec.size))}</text>`
  );
}

export function rect(x: number, y: number, width: number, height: number, fill: string, radius = 0): string {
  const corners = radius > 0 ? ` rx="${radius}" ry="${radius}"` : '';
  return `<rect x="${x}" y="${y}" width="${width}" height="${height}"${corners} fill="${fill}"/>`;
}

/** An outline inside the key's edge. */
export function frame(colour: string, width = 4): string {
  const inset = 4 + width / 2;
  const size = KEY_SIZE - 2 * inset;
  return `<rect x="${inset}" y="${inset}" width="${size}" height="${size}" rx="10" ry="10" fill="none" stroke="${colour}" stroke-width="${width}"/>`;
}

/** A whole key: a background and the given parts, drawn in order. */
export function keySvg(background: string, ...parts: string[]): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${KEY_SIZE}" height="${KEY_SIZE}" viewBox="0 0 ${KEY_SIZE} ${KEY_SIZE}">` +
    rect(0, 0, KEY_SIZE, KEY_SIZE, background) +
    parts.join('') +
    '</svg>'
  );
}

/** What `setImage` takes: the SVG as a data URL. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}
