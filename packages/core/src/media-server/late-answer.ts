import type { LateOutcome } from '../errors.js';
import { shown } from './input-checks.js';
import { PLAYMODE_COMMANDS, type Playmode } from './playmode.js';
import type { TransportCommand } from './transport-commands.js';
import type { Ref, Transport } from './types.js';

/**
 * The time, beyond a cue's own deadline, that one re-read of the transports may take after the cue's answer did
 * not come: a director that answers at all answers a read within it.
 */
export const LATE_ANSWER_CHECK_MS = 1000;

/** What a cue asks one transport to show, in what a read of the transports can tell. */
export interface AskedState {
  transport: Ref;
  track?: Ref;
  playmode?: Playmode;
}

const PLAYMODE_OF: Readonly<Partial<Record<TransportCommand, Playmode>>> = Object.fromEntries(
  Object.entries(PLAYMODE_COMMANDS).map(([playmode, command]) => [command, playmode as Playmode]),
);

/**
 * What the cue asks of each transport it names; undefined when a read of the transports cannot tell whether it
 * happened (a section, a time, a note, a tag, the next track, a level: the transports list shows none of them).
 */
export function askedOf(command: TransportCommand, items: readonly unknown[]): AskedState[] | undefined {
  const playmode = PLAYMODE_OF[command];
  if (playmode) return items.map((transport) => ({ transport: transport as Ref, playmode }));
  if (command !== 'gototrack') return undefined;
  return items.map((item) => {
    const cue = item as { transport: Ref; track: Ref; playmode?: Playmode };
    // NotSet leaves the play state as it was: the cue asks for the track only.
    return { transport: cue.transport, track: cue.track, ...(cue.playmode && cue.playmode !== 'NotSet' ? { playmode: cue.playmode } : {}) };
  });
}

export interface LateVerdict {
  outcome: LateOutcome;
  /** Why, in words that finish "it landed: ..." or "whether it landed is unknown: ...". */
  why: string;
}

/**
 * Whether a cue whose answer came late landed: only when the transports now show what it asked for and did not
 * just before it was sent, and no other request that may move a transport went out meanwhile. Anything else is
 * unknown: a cue reported as landed that did not (or that is still queued on the director) is worse than one
 * reported as unknown (docs/api-notes.md, "Answers that stall or come late").
 */
export function lateVerdict(
  asked: readonly AskedState[] | undefined,
  before: readonly Transport[] | undefined,
  after: readonly Transport[],
  otherMoves: number,
): LateVerdict {
  if (!asked) return unknown('what it asks for cannot be read back from the transports');
  if (!before) return unknown('this client had no reading of the transports from just before it was sent');
  if (otherMoves > 0) return unknown('other commands went to the server meanwhile');
  const shown: string[] = [];
  for (const state of asked) {
    const [was, now] = [before, after].map((transports) => transports.find((transport) => matches(transport, state.transport)));
    const name = describeRef(state.transport);
    if (!was || !now) return unknown(`transport ${name} is not in the transports list`);
    if (!shows(now, state)) return unknown(`transport ${name} does not show ${describe(state)}`);
    if (shows(was, state)) return unknown(`transport ${name} already showed ${describe(state)} before it was sent`);
    shown.push(`transport ${name} now shows ${describe(state)}`);
  }
  return { outcome: 'landed', why: `${shown.join('; ')}, which it did not before` };
}

const unknown = (why: string): LateVerdict => ({ outcome: 'unknown', why });

function shows(transport: Transport, state: AskedState): boolean {
  return (state.playmode === undefined || transport.playmode === state.playmode) && (state.track === undefined || matches(transport.currentTrack, state.track));
}

/** Every part of the ref that is given must match: a ref naming a uid and a name matches only both. */
function matches(candidate: { uid: string; name: string }, ref: Ref): boolean {
  return (ref.uid !== undefined || ref.name !== undefined) && (ref.uid === undefined || ref.uid === candidate.uid) && (ref.name === undefined || ref.name === candidate.name);
}

function describe(state: AskedState): string {
  return [state.track && `track ${describeRef(state.track)}`, state.playmode].filter(Boolean).join(', ');
}

function describeRef(ref: Ref): string {
  return shown(ref.name ?? ref.uid);
}
