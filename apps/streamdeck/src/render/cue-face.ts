import { palette } from './palette.js';
import { fitText, keySvg, rect, text, textBlock, wrapText } from './svg.js';

/** What the transport key knows about its transport, from the shared, gently polled transport list. */
export type TransportActivity = 'playing' | 'stopped' | 'unknown' | 'missing' | 'no-link';

export interface CueView {
  /** The command in words: PLAY, GO TO TRACK, ... */
  command: string;
  /** The cue's name: the track, section, note, time, ... or the transport for plain commands. */
  name: string;
  transport: string;
  activity: TransportActivity;
  /** For an engage key: whether the transport is engaged now (undefined when unknown). */
  engaged?: boolean;
  /** A cue of this key is still on its way to the server. */
  sending?: boolean;
}

const FOOT: Record<TransportActivity, { label: string; colour: string }> = {
  playing: { label: 'PLAYING', colour: palette.text },
  stopped: { label: '', colour: palette.muted },
  unknown: { label: '', colour: palette.muted },
  missing: { label: 'NOT FOUND', colour: palette.warning },
  'no-link': { label: 'NO LINK', colour: palette.warning },
};

const FOOT_SIZE = 13;

/** The cue's name, and the state of its transport: green with a play mark while it plays. */
export function cueFace(view: CueView): string {
  const playing = view.activity === 'playing';
  const foot = view.sending
    ? { label: 'SENDING\u2026', colour: palette.text }
    : view.engaged === undefined || view.activity === 'no-link'
      ? FOOT[view.activity]
      : { label: view.engaged ? 'ENGAGED' : 'DISENGAGED', colour: view.engaged ? palette.text : palette.warning };
  return keySvg(
    playing ? palette.playing : palette.neutral,
    text(view.command, { y: 26, size: 15, colour: playing ? palette.text : palette.muted, bold: true }),
    textBlock(wrapText(view.name, 22, 2), { centreY: 72, size: 22, colour: palette.text, bold: true }),
    playing ? '<polygon points="12,112 12,130 27,121" fill="#ffffff"/>' : '',
    view.activity === 'no-link' ? rect(0, 136, 144, 8, palette.warning) : '',
    text(footLine(view, foot.label), { x: playing ? 80 : 72, y: 126, size: FOOT_SIZE, colour: foot.colour }),
  );
}

/**
 * The transport and its state under the cue's name. The state word matters most: it is never cut off. The
 * transport is left out where the name above already is the transport, or where both do not fit.
 */
function footLine(view: CueView, label: string): string {
  if (label === '') return view.transport;
  if (view.name === view.transport) return label;
  const both = `${view.transport} \u00b7 ${label}`;
  return fitText(both, FOOT_SIZE) === both ? both : label;
}
