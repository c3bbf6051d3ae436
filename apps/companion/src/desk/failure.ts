/** What an action that did not do its job says, in core's words, with a late answer named as such. */
import { LateAnswerError, reasonOf } from '@stagelink/core';

export function failureOf(action: string, error: unknown): string {
  if (error instanceof LateAnswerError) {
    return `${action}: ${error.outcome === 'landed' ? 'landed late' : 'outcome unknown'} (not sent again). ${error.message}`;
  }
  return `${action} failed: ${reasonOf(error)}`;
}
