import { invalidArgument } from './refusal.js';

/** The playmodes a transport reports (spec section 3 names the first three; `stop` is the simulator's). */
export const PLAYMODES = {
  play: 'play',
  loopSection: 'loop section',
  playSection: 'play to end of section',
  stop: 'stop',
} as const;

export type Playmode = (typeof PLAYMODES)[keyof typeof PLAYMODES];

/** What a goto's `playmode` may say: the reported names, or the command that sets them. */
const SPELLINGS: Readonly<Record<string, Playmode>> = {
  play: PLAYMODES.play,
  'loop section': PLAYMODES.loopSection,
  playloopsection: PLAYMODES.loopSection,
  'play to end of section': PLAYMODES.playSection,
  playsection: PLAYMODES.playSection,
  stop: PLAYMODES.stop,
};

/**
 * The playmode a goto asks for, or undefined when it asks for none (absent or empty, as a proto3 default
 * arrives): the transport then keeps its playmode.
 */
export function requestedPlaymode(text: string | undefined): Playmode | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const playmode = SPELLINGS[text.trim().toLowerCase().replace(/\s+/g, ' ')];
  if (playmode) return playmode;
  throw invalidArgument(`Playmode "${text}" is not one of: ${Object.keys(SPELLINGS).join(', ')}.`);
}
