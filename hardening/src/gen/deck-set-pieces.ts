import type { DeckAction, Settings } from './deck-events.js';
import type { Wire } from './values.js';

/**
 * Stream Deck inputs that once kept the plugin from answering, played in every run as they are: the generated
 * events reach them only now and then (a million-character name on a key on screen, a handful of turns of a
 * dial set up right in 800 events), and the CI subset's 150 may miss them altogether.
 */

/**
 * Tick counts a turn may carry: whole ones as the app sends them, and what it never sends: fractions, counts
 * beyond any range, NaN and ±Infinity (null in JSON), text, a list, none at all (undefined leaves `ticks` out of
 * the payload). Each must land as shown or alert.
 */
export const ODD_TICKS: readonly (Wire | undefined)[] = [3, -1, 2.5, -0.5, 1000, -1_000_000, 1e308, -1e308, Number.MAX_SAFE_INTEGER, null, 'many', [3], undefined];

/** Settings of a level dial set up right on the simulator. */
export const SET_UP_DIAL: Settings = { property: 'volume', transport: 'lobby', step: 0.05 };

/** What a million characters of one name look like: one letter, one accented, one emoji, and words. */
const HUGE_NAMES: readonly string[] = ['x'.repeat(1_000_000), '\u00e9'.repeat(1_000_000), '\u{1f3ad}'.repeat(500_000), 'Act '.repeat(250_000)];

export interface SetPieceKey {
  action: DeckAction;
  controller: 'Keypad' | 'Encoder';
  settings: Settings;
}

/**
 * Keys of every action on screen, each naming a transport, track, note or machine by a name of a million
 * characters. Their faces are drawn on every poll: fitting such a name to a key once took the plugin minutes.
 */
export function hugeNameKeys(): SetPieceKey[] {
  return HUGE_NAMES.flatMap((name): SetPieceKey[] => [
    { action: 'transport', controller: 'Keypad', settings: { command: 'play', transport: name } },
    { action: 'transport', controller: 'Keypad', settings: { command: 'gototrack', transport: 'main', track: name } },
    { action: 'transport', controller: 'Keypad', settings: { command: 'gotonote', transport: 'main', note: name } },
    { action: 'fps', controller: 'Keypad', settings: { machine: name, target: 60 } },
    { action: 'health', controller: 'Keypad', settings: { machine: name } },
    { action: 'clock', controller: 'Keypad', settings: { transport: name, show: 'playhead' } },
    { action: 'level', controller: 'Encoder', settings: { property: 'volume', transport: name } },
  ]);
}
