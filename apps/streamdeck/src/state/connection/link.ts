import { isUnreachable } from '@stagelink/core';
import { StaleValueError } from './shared-poll.js';

/**
 * True when nothing reached us from the server (refused, timed out, or no answer for longer than a value may be
 * shown): the key shows NO LINK. Anything else (a refusal, bad input, a bug) is a problem the key
 * names instead, so the operator is not sent to check cables that are fine.
 */
export function isLinkDown(error: unknown): boolean {
  return isUnreachable(error) || error instanceof StaleValueError;
}
