import type { MediaServer } from '@stagelink/core';
import type { TurnOutcome } from '../faults/front-end.js';
import type { Wire } from '../gen/values.js';
import type { Tally } from '../report/tally.js';
import { waitUntil } from '../support/time.js';
import type { FakeStreamDeck } from './deck.js';

/**
 * Turns a level dial by `ticks` and waits (up to `limitMs`) for its answer: an alert ('error'), or the touch
 * strip showing a percentage the server has ('ack'). A turn against the end stop (up at 100 %, down at 0 %)
 * changes nothing and sends no new frame: the strip's last value answers it. `ticks` may be anything a frame
 * can carry (undefined leaves it out of the payload).
 */
export async function turnDial(deck: FakeStreamDeck, context: string, ticks: Wire | undefined, serverPercent: () => Promise<number | undefined>, limitMs: number): Promise<TurnOutcome> {
  const alerts = deck.sent('showAlert', context).length;
  const frames = deck.sent('setFeedback', context).length;
  const before = shownPercent(deck, context);
  const count = typeof ticks === 'number' ? ticks : 0;
  const atEndStop = (before === 100 && count > 0) || (before === 0 && count < 0);
  deck.dialRotate(context, ticks as number);
  const outcome = await waitUntil(async (): Promise<TurnOutcome | undefined> => {
    if (deck.sent('showAlert', context).length > alerts) return 'error';
    const fresh = deck.sent('setFeedback', context).slice(frames).map(percentShown).filter((value) => value !== undefined).at(-1);
    const shown = fresh ?? (atEndStop ? before : undefined);
    if (shown === undefined) return undefined;
    return shown === (await serverPercent()) ? 'ack' : undefined;
  }, limitMs, 200);
  return outcome ?? 'silent';
}

/** The percentage the dial's touch strip shows now; undefined while it shows something else. */
export function shownPercent(deck: FakeStreamDeck, context: string): number | undefined {
  return percentShown(deck.sent('setFeedback', context).at(-1));
}

/** The percentage a dial's touch strip shows, from its `setFeedback`; undefined for NO LINK, waiting or set-up. */
function percentShown(command: { payload?: unknown } | undefined): number | undefined {
  const value = (command?.payload as { value?: unknown } | undefined)?.value;
  const match = typeof value === 'string' ? /^(\d+)%$/.exec(value) : null;
  return match ? Number(match[1]) : undefined;
}

/** A transport's volume or brightness on `server` in whole percent, as a dial shows it; undefined when unreadable. */
export async function levelPercent(server: MediaServer, transport: string, property: 'volume' | 'brightness'): Promise<number | undefined> {
  try {
    const { transports } = await server.transport.transports();
    const value = transports.find((candidate) => candidate.name === transport)?.[property];
    return typeof value === 'number' ? Math.round(value * 100) : undefined;
  } catch {
    return undefined;
  }
}

/** What turns of set-up dials came to, for an area's notes. */
export interface DialCounts {
  turned: number;
  landed: number;
  alerts: number;
}

/** Counts one turn's outcome: landed on the server, refused with an alert, or lost (a finding that says `turn`). */
export function countTurnOutcome(outcome: TurnOutcome | undefined, tally: Tally, dials: DialCounts, turn: string): void {
  if (outcome === 'ack') {
    tally.ok++;
    dials.landed++;
  } else if (outcome === 'error') {
    tally.errors++;
    dials.alerts++;
  } else {
    tally.silentLosses++;
    tally.finding(`${turn} neither reached the server as shown nor raised an alert`);
  }
}
