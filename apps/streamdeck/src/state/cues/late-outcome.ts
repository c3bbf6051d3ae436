/**
 * What a cue whose answer came late did. Core never sends such a cue again: it reads the transports once more and
 * rejects with LateAnswerError, whose `code` says whether the cue's state is there now (`landed`) or nobody can
 * tell (`unknown`: the state it asks for may have been there already). The key says which.
 */
import { StagelinkError, type LateOutcome } from '@stagelink/core';

import type { KeyOutcome } from '../../render/cue-face.js';
import { CueNotSentError } from './cue-queue.js';

export type { KeyOutcome, LateOutcome };

const OUTCOMES: Record<string, LateOutcome> = {
  STAGELINK_ERR_LATE_LANDED: 'landed',
  STAGELINK_ERR_LATE_UNKNOWN: 'unknown',
};

/** The outcome of a cue that failed with `error`, when its answer came late; undefined for any other failure. */
export function lateOutcomeOf(error: unknown): LateOutcome | undefined {
  return error instanceof StagelinkError ? OUTCOMES[error.code] : undefined;
}

/**
 * What a key says for a while after a cue that failed with `error`: a late answer's outcome, or `not-sent` for a
 * cue refused after waiting too long behind others; undefined for any other failure (an alert and the log).
 */
export function keyOutcomeOf(error: unknown): KeyOutcome | undefined {
  return error instanceof CueNotSentError ? 'not-sent' : lateOutcomeOf(error);
}
