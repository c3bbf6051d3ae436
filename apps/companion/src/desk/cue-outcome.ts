/**
 * What became of the last cue, in the words a desk shows, from core's rule (cueFateOf): `ok`; `landed late` and
 * `outcome unknown` for a cue whose answer came after its deadline or never came (it may have played: never sent
 * again); `refused: link down` for a cue not sent because the server could not be reached or was known not to
 * answer; `failed` for a cue the server refused or that provably never left for another reason (it waited too long
 * behind other cues, the director was not found in time, a transport the server does not list).
 */
import { cueFateOf, type CueFate } from '@stagelink/core';

export type CueOutcome = 'ok' | 'failed' | 'landed late' | 'outcome unknown' | 'refused: link down';

const WORDS: Record<CueFate, CueOutcome> = {
  ok: 'ok',
  'not-sent': 'failed',
  'link-down': 'refused: link down',
  refused: 'failed',
  'landed-late': 'landed late',
  unknown: 'outcome unknown',
};

export function cueOutcomeOf(error: unknown): CueOutcome {
  return WORDS[cueFateOf(error)];
}
