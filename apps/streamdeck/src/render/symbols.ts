/**
 * The status symbol at the top of a key: a different shape for every state, so a face reads without its
 * colour. Plain lines, polygons and circles only, drawn in a 36 px box centred at (72, 30).
 */

export type StatusSymbol =
  | 'ok'
  | 'warning'
  | 'error'
  | 'busy'
  | 'machine-offline'
  | 'no-link'
  | 'waiting'
  | 'set-up'
  | 'problem'
  | 'stale'
  | 'cut-short'
  | 'unknown'
  | 'playing'
  | 'sending'
  | 'engaged'
  | 'disengaged'
  | 'not-found'
  | 'stopped';

const stroke = (colour: string, width = 4): string =>
  `fill="none" stroke="${colour}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"`;
const line = (x1: number, y1: number, x2: number, y2: number, colour: string, width = 4): string =>
  `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" ${stroke(colour, width)}/>`;
const dot = (cx: number, cy: number, r: number, colour: string): string => `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${colour}"/>`;
const ring = (cx: number, cy: number, r: number, colour: string): string => `<circle cx="${cx}" cy="${cy}" r="${r}" ${stroke(colour)}/>`;
/** An exclamation mark standing on the centre line. */
const exclamation = (top: number, colour: string): string => line(72, top, 72, top + 11, colour) + dot(72, top + 17, 2.5, colour);

export function statusSymbol(symbol: StatusSymbol, colour: string): string {
  switch (symbol) {
    case 'ok':
      return `<polyline points="56,31 67,42 88,19" ${stroke(colour, 5)}/>`;
    case 'warning':
      return `<polygon points="72,12 91,47 53,47" ${stroke(colour)}/>` + exclamation(23, colour);
    case 'error':
      return line(57, 15, 87, 45, colour, 5) + line(87, 15, 57, 45, colour, 5);
    case 'busy':
      // An hourglass.
      return `<polygon points="58,13 86,13 72,30" fill="${colour}"/><polygon points="72,30 86,47 58,47" fill="${colour}"/>`;
    case 'machine-offline':
      // A circle struck through: the machine is out of the session.
      return ring(72, 30, 16, colour) + line(61, 41, 83, 19, colour);
    case 'no-link':
      // Two links of a chain, pulled apart.
      return `<rect x="50" y="23" width="18" height="14" rx="7" ry="7" ${stroke(colour)}/>` +
        `<rect x="76" y="23" width="18" height="14" rx="7" ry="7" ${stroke(colour)}/>` +
        line(70, 44, 74, 16, colour, 3);
    case 'waiting':
      return dot(58, 30, 4.5, colour) + dot(72, 30, 4.5, colour) + dot(86, 30, 4.5, colour);
    case 'set-up':
      // Two sliders of a settings page.
      return line(55, 20, 89, 20, colour, 3) + dot(64, 20, 6, colour) + line(55, 40, 89, 40, colour, 3) + dot(80, 40, 6, colour);
    case 'problem':
      return ring(72, 30, 17, colour) + exclamation(21, colour);
    case 'stale':
      // A clock: the value is from a while ago.
      return ring(72, 30, 17, colour) + line(72, 30, 72, 19, colour, 3) + line(72, 30, 80, 35, colour, 3);
    case 'cut-short':
      // A page torn off at the bottom: the answer started and stopped part way.
      return `<polyline points="58,42 58,13 86,13 86,42" ${stroke(colour, 3)}/>` +
        `<polyline points="58,42 63,47 68,42 73,47 78,42 83,47 86,44" ${stroke(colour, 3)}/>` +
        line(64, 22, 80, 22, colour, 3) + line(64, 31, 80, 31, colour, 3);
    case 'unknown':
      // A question mark: nobody can tell yet.
      return `<polyline points="62,21 65,15 72,13 79,15 82,21 80,26 72,31 72,37" ${stroke(colour)}/>` + dot(72, 45, 2.5, colour);
    case 'playing':
      return `<polygon points="61,13 89,30 61,47" fill="${colour}"/>`;
    case 'sending':
      return line(54, 30, 86, 30, colour) + `<polyline points="75,19 87,30 75,41" ${stroke(colour)}/>`;
    case 'engaged':
      return dot(72, 30, 15, colour);
    case 'disengaged':
      return ring(72, 30, 14, colour);
    case 'not-found':
      // A magnifying glass: looked for, not there.
      return ring(67, 25, 11, colour) + line(75, 33, 88, 46, colour, 5);
    case 'stopped':
      // A stop square, as on a player.
      return `<rect x="58" y="16" width="28" height="28" fill="${colour}"/>`;
  }
}
