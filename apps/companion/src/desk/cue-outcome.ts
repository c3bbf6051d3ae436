/**
 * What became of the last cue, in the words a desk shows: `ok`; `landed late` and `outcome unknown` for a cue whose
 * answer came after its deadline or never came (it may have played: never sent again); `refused: link down` for a
 * cue not sent because the server was known not to answer; `failed` for a cue the server refused or that could not
 * be sent for another reason. Only what the error's kind and core's `mayHaveReachedServer` say decides it.
 */
import { ConnectionError, LateAnswerError, TimeoutError } from '@stagelink/core';

export type CueOutcome = 'ok' | 'failed' | 'landed late' | 'outcome unknown' | 'refused: link down';

export function cueOutcomeOf(error: unknown): CueOutcome {
  if (error === undefined) return 'ok';
  if (error instanceof LateAnswerError) return error.outcome === 'landed' ? 'landed late' : 'outcome unknown';
  if (error instanceof ConnectionError) return error.mayHaveReachedServer ? 'outcome unknown' : 'refused: link down';
  if (error instanceof TimeoutError && error.mayHaveReachedServer) return 'outcome unknown';
  return 'failed';
}
