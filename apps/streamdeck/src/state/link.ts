import { HttpError, StatusError } from '@stagelink/core';

/**
 * True when a failed request says nothing reached us from the server (refused, timed out, no answer): the
 * key shows its offline face. A server that answered with an error is up; the key says what it refused.
 */
export function isLinkDown(error: unknown): boolean {
  return !(error instanceof HttpError || error instanceof StatusError);
}
