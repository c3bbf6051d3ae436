import { InvalidInputError } from '../errors.js';
import { shown } from './input-checks.js';
import type { TransportCommand } from './transport-commands.js';

/**
 * Where a transport's play head goes, in the enum names shipping directors use on the wire. The API documents
 * write `play`, `loop section` and `play to end of section`; r34 directors report and accept only the enum
 * names. `NotSet` leaves the play state as it is; `Unknown` is a word neither vocabulary has.
 */
export type Playmode = 'NotSet' | 'Play' | 'PlaySection' | 'Loop' | 'Stop' | 'Unknown';

/** The playmodes a goto can ask for, in the order a picker lists them. */
export const PLAYMODES = ['Play', 'PlaySection', 'Loop', 'Stop', 'NotSet'] as const satisfies readonly Playmode[];

export type RequestedPlaymode = (typeof PLAYMODES)[number];

/** What a picker shows for each playmode a goto can ask for, in the words an operator uses. */
export const PLAYMODE_LABELS: Readonly<Record<RequestedPlaymode, string>> = {
  Play: 'play',
  PlaySection: 'play to end of section',
  Loop: 'loop section',
  Stop: 'stop',
  NotSet: 'keep playing or stopped',
};

/**
 * The command that puts a transport into each playmode a command can set (`NotSet` is no state to go to): what a
 * picker of playmodes sends, and what a cue of that command asks a read of the transports to show.
 */
export const PLAYMODE_COMMANDS: Readonly<Record<Exclude<RequestedPlaymode, 'NotSet'>, TransportCommand>> = {
  Play: 'play',
  PlaySection: 'playsection',
  Loop: 'playloopsection',
  Stop: 'stop',
};

/** Every spelling seen, folded to lower case without spaces or underscores. */
const SPELLINGS: Readonly<Record<string, RequestedPlaymode>> = {
  notset: 'NotSet',
  play: 'Play',
  playsection: 'PlaySection',
  playtoendofsection: 'PlaySection',
  loop: 'Loop',
  loopsection: 'Loop',
  playloopsection: 'Loop',
  stop: 'Stop',
};

const fold = (text: string): string => text.toLowerCase().replace(/[\s_-]+/g, '');

/** A playmode as a server reported it, in either vocabulary; `Unknown` when it is neither. */
export function toPlaymode(reported: unknown): Playmode {
  return (typeof reported === 'string' && SPELLINGS[fold(reported)]) || 'Unknown';
}

/**
 * The enum name to send for a playmode given in any case or in the documents' words; InvalidInputError for a
 * word that is no playmode, so nothing is sent that a director would refuse.
 */
export function playmodeToSend(requested: unknown): RequestedPlaymode {
  const playmode = typeof requested === 'string' ? SPELLINGS[fold(requested)] : undefined;
  if (!playmode) {
    throw new InvalidInputError(`${shown(requested)} is not a playmode: use one of ${PLAYMODES.join(', ')} (or play, loop section, play to end of section).`);
  }
  return playmode;
}

const PLAYING: ReadonlySet<Playmode> = new Set(['Play', 'PlaySection', 'Loop']);

/** True while the transport moves: `Play`, `PlaySection` or `Loop`, whichever vocabulary the server speaks. */
export function isPlaying(transport: { playmode: unknown } | undefined): boolean {
  return transport !== undefined && PLAYING.has(toPlaymode(transport.playmode));
}
