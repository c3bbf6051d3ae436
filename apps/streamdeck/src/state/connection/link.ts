import { isUnreachable, StagelinkError } from '@stagelink/core';
import { StaleValueError } from './shared-poll.js';

/**
 * True when nothing reached us from the server (refused, timed out, or no answer for longer than a value may be
 * shown): the key shows NO LINK. Anything else (a refusal, bad input, a bug) is a problem the key
 * names instead, so the operator is not sent to check cables that are fine.
 */
export function isLinkDown(error: unknown): boolean {
  return isUnreachable(error) || error instanceof StaleValueError;
}

/**
 * True when the server started to answer and the rest of the answer never came (core's StalledAnswerError):
 * the machine is up and small requests such as cues get through, but large answers (lists) do not, as on a
 * show network whose MTU differs between its ends. Keys show MTU?, never NO LINK.
 */
export function largeAnswersFail(error: unknown): boolean {
  return error instanceof StagelinkError && error.code === 'STAGELINK_ERR_STALLED_ANSWER';
}
