import { StalledAnswerError } from '@stagelink/core';

/**
 * Why a retained topic carries `"stale": true`: its payload's `reason`, one of these words, so a flow can tell a
 * lost link from one quiet value or a network that drops large answers. The topic keeps its last value.
 */
export const STALE_REASONS = {
  /** The live-update stream to the director is down: no live value of the session can be seen. */
  noLink: 'no link',
  /** The stream is up, but this value stopped coming and asking for it again brought none. */
  valuesStopped: 'values stopped',
  /** The director answers, but this read's answer stopped part way: a network MTU mismatch, most likely. */
  largeAnswersFail: 'large answers fail (MTU?)',
  /** The read failed otherwise: no answer in time, the machine unreachable, the read refused. */
  readFailed: 'read failed',
  /** The machine was taken out of the session while the bridge ran: its values will not come again. */
  leftSession: 'left the session',
  /** The transport is no longer in the project the director runs (another project loaded, the transport renamed). */
  notInProject: 'not in the project',
} as const;

export type StaleReason = (typeof STALE_REASONS)[keyof typeof STALE_REASONS];

/** The reason a failed poll read gives its topics: a stalled answer is not a machine that is away. */
export function readFailureReason(error: unknown): StaleReason {
  return error instanceof StalledAnswerError ? STALE_REASONS.largeAnswersFail : STALE_REASONS.readFailed;
}
