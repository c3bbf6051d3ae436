import { LateAnswerError, reasonOf, type LateOutcome } from '@stagelink/core';

/**
 * What a command answers: `{ id, ok, error?, code?, outcome? }`; `duplicate` (with `ok` false) when it is a copy of
 * one the same sender sent lately, which is not run again.
 * `outcome` comes only with a cue whose answer came late (core's LateAnswerError, `STAGELINK_ERR_LATE_LANDED` /
 * `STAGELINK_ERR_LATE_UNKNOWN`): `landed` when the transport shows the cue took effect, `unknown` when it cannot
 * tell. Either way it was sent once.
 */
export interface CommandResult {
  id: string | null;
  ok: boolean;
  error?: string;
  code?: string;
  outcome?: LateOutcome;
  duplicate?: true;
}

/** A failed command's result: the error's words and, when it has them, its stable code and a late cue's outcome. */
export function failureResult(id: string | undefined, error: unknown): CommandResult {
  const code = typeof (error as { code?: unknown } | undefined)?.code === 'string' ? (error as { code: string }).code : undefined;
  const outcome = error instanceof LateAnswerError ? { outcome: error.outcome } : {};
  return { id: id ?? null, ok: false, error: reasonOf(error), ...(code ? { code } : {}), ...outcome };
}
