/** A picture of a deck: the plugin's own key images (144x144 SVG, as it sent them) on a dark face plate. */

const KEY_SIZE = 96;

function keyImage(svg: string): string {
  const source = `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
  return `<img class="key" src="${source}" width="${KEY_SIZE}" height="${KEY_SIZE}" alt="">`;
}

/** An HTML page with the keys in rows, as they sit on the deck. */
export function deckPage(rows: string[][]): string {
  const style = `
    body { margin: 0; background: #ffffff; }
    .deck { display: inline-flex; flex-direction: column; gap: 14px; padding: 22px; margin: 8px; background: #151515; border-radius: 22px; }
    .row { display: flex; gap: 14px; }
    .key { border-radius: 12px; display: block; }`;
  const body = rows.map((keys) => `<div class="row">${keys.map(keyImage).join('')}</div>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><style>${style}</style></head><body><div class="deck">${body}</div></body></html>`;
}
