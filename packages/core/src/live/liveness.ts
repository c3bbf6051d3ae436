/**
 * When a live subscription counts as silent, and how often a silent one is asked again. Servers send a value
 * only when it changes, so silence alone proves nothing: a silent subscription is probed (unsubscribe and
 * subscribe again, which makes the server send the current value) and only a probe that brings nothing makes it
 * stale. docs/api-notes.md, "Live update", states these defaults.
 */
export interface LivenessTiming {
  /** A subscription is probed after this many of its intervals without a value... */
  silenceIntervals: number;
  /** ...and never sooner than this. */
  silenceMinMs: number;
  /** How long a subscribe (a first one or a probe) may go without its id and a value before the pair is stale. */
  answerWaitMs: number;
  /** First pause between probes of a stale pair; doubles up to `probeCapMs`. */
  probeBaseMs: number;
  probeCapMs: number;
  /** How long a write may wait for its subscription's id before it fails unsent. */
  heldWriteMs: number;
}

export const DEFAULT_LIVENESS_TIMING: LivenessTiming = {
  silenceIntervals: 10,
  silenceMinMs: 5000,
  answerWaitMs: 5000,
  probeBaseMs: 5000,
  probeCapMs: 15_000,
  heldWriteMs: 2000,
};

export function silenceWindowMs(intervalMs: number, timing: LivenessTiming): number {
  return Math.max(timing.silenceMinMs, intervalMs * timing.silenceIntervals);
}

/** The pause before the next probe of a pair that is stale after `attempt` probes brought nothing. */
export function probePauseMs(attempt: number, timing: LivenessTiming): number {
  return Math.min(timing.probeCapMs, timing.probeBaseMs * 2 ** attempt);
}
