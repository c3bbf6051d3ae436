/**
 * Reads a key face's SVG back as what the Stream Deck app would draw: the background, every line of text
 * with its size, weight, colour and position, and the rest (the status symbol).
 */

export interface DrawnText {
  content: string;
  x: number;
  y: number;
  size: number;
  bold: boolean;
  colour: string;
  family: string;
  anchor: string;
}

export interface DrawnFace {
  background: string;
  texts: DrawnText[];
  /** Everything drawn besides the background and the text, with its colours taken out. */
  shapes: string;
}

const BACKGROUND = /^<svg [^>]*><rect x="0" y="0" width="144" height="144" fill="(#[0-9a-f]{6})"\/>/;

const attribute = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

function unescape(content: string): string {
  return content.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));
}

export function readFace(svg: string): DrawnFace {
  const background = BACKGROUND.exec(svg)?.[1];
  if (background === undefined) throw new Error(`No full-key background in ${svg}`);
  const texts = [...svg.matchAll(/<text([^>]*)>([^<]*)<\/text>/g)].map(([, tag = '', content = '']) => ({
    content: unescape(content),
    x: Number(attribute(tag, 'x')),
    y: Number(attribute(tag, 'y')),
    size: Number(attribute(tag, 'font-size')),
    bold: attribute(tag, 'font-weight') === 'bold',
    colour: attribute(tag, 'fill') ?? '',
    family: attribute(tag, 'font-family') ?? '',
    anchor: attribute(tag, 'text-anchor') ?? 'start',
  }));
  const shapes = svg
    .replace(BACKGROUND, '')
    .replace(/<text[^>]*>[^<]*<\/text>/g, '')
    .replace('</svg>', '')
    .replace(/(fill|stroke)="#[0-9a-f]{6}"/g, '$1=""');
  return { background, texts, shapes };
}

/** The words of a face, top to bottom. */
export function wordsOf(svg: string): string[] {
  return readFace(svg).texts.map((text) => text.content);
}
