/**
 * What a key says for a while after a cue that failed, from core's rule of what became of it (cueFateOf): a cue
 * whose answer came late and that shows on the transport says LANDED LATE; one that may have reached the server
 * without anybody being able to tell whether it played says OUTCOME UNKNOWN (core never sends it again); one that
 * provably never left says NOT SENT. A cue refused while the link is down (the key already shows the link gone) or
 * refused by the server gets an alert and a log line only.
 */
import { cueFateOf, type CueFate } from '@stagelink/core';

import type { KeyOutcome } from '../../render/cue-face.js';

export type { KeyOutcome };

const KEY_OUTCOMES: Partial<Record<CueFate, KeyOutcome>> = {
  'landed-late': 'landed',
  unknown: 'unknown',
  'not-sent': 'not-sent',
};

/** What a key says after a cue that failed with `error`; undefined when an alert and the log say it all. */
export function keyOutcomeOf(error: unknown): KeyOutcome | undefined {
  return KEY_OUTCOMES[cueFateOf(error)];
}
