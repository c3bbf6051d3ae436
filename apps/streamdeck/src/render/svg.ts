/**
 * The few SVG pieces the key faces are made of. The Stream Deck app draws SVG with a limited renderer: one
 * font family per text element and plain shapes, on a 144x144 canvas that a standard key shows at 72 px.
 */

export const KEY_SIZE = 144;
/** One family, present on every macOS and Windows desk machine; text-width.ts holds its advance widths. */
export const FONT_FAMILY = 'Arial';

export interface TextSpec {
  x?: number;
  y: number;
  size: number;
  colour: string;
  bold?: boolean;
}

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** One line of text, centred on `x` (the middle of the key unless given). */
export function text(content: string, spec: TextSpec): string {
  const weight = spec.bold ? ' font-weight="bold"' : '';
  return (
    `<text x="${spec.x ?? KEY_SIZE / 2}" y="${spec.y}" font-family="${FONT_FAMILY}" font-size="${spec.size}"${weight} ` +
    `fill="${spec.colour}" text-anchor="middle">${escapeXml(content)}</text>`
  );
}

export function rect(x: number, y: number, width: number, height: number, fill: string): string {
  return `<rect x="${x}" y="${y}" width="${width}" height="${height}" fill="${fill}"/>`;
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
