/**
 * Faces every kind of key shares: the link to the server is down, the key is not set up yet, or the key is
 * waiting for its first value. None of them ever shows a number, so nothing stale can pass for live.
 */
import { palette } from './palette.js';
import { frame, keySvg, text, textBlock, wrapText } from './svg.js';

/** The link to the media server is down: an explicit, unmistakable face, the same on every key. */
export function offlineFace(label: string, detail: string): string {
  return keySvg(
    palette.noLink,
    frame(palette.muted),
    text(label, { y: 28, size: 16, colour: palette.muted }),
    text('OFFLINE', { y: 82, size: 24, colour: palette.text, bold: true }),
    text(detail, { y: 122, size: 14, colour: palette.muted }),
  );
}

/** The key needs something from the operator (a host, a transport, a valid value). */
export function setupFace(label: string, message: string): string {
  return keySvg(
    palette.neutral,
    text(label, { y: 28, size: 16, colour: palette.muted }),
    text('SET UP', { y: 62, size: 22, colour: palette.warning, bold: true }),
    textBlock(wrapText(message, 14, 3), { centreY: 102, size: 14, colour: palette.text }),
  );
}

/** Connected or connecting, with no value yet: dashes, never a number. */
export function waitingFace(label: string, detail: string): string {
  return keySvg(
    palette.neutral,
    text(label, { y: 28, size: 16, colour: palette.muted }),
    text('--', { y: 88, size: 40, colour: palette.muted, bold: true }),
    text(detail, { y: 124, size: 14, colour: palette.muted }),
  );
}

/** The server answered, but not with what the key asked for (unknown machine, refused request). */
export function problemFace(label: string, message: string): string {
  return keySvg(
    palette.neutral,
    text(label, { y: 28, size: 16, colour: palette.muted }),
    text('PROBLEM', { y: 62, size: 22, colour: palette.error, bold: true }),
    textBlock(wrapText(message, 14, 3), { centreY: 102, size: 14, colour: palette.text }),
  );
}
