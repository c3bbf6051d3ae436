import { ConnectionError, LateAnswerError, StatusError, TimeoutError } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { keyOutcomeOf } from '../../src/state/cues/key-outcome.js';

describe('what a key says after its cue failed (core rule: cueFateOf)', () => {
  it('says LANDED LATE or OUTCOME UNKNOWN for a late answer, and OUTCOME UNKNOWN for an answer that never came', () => {
    expect(keyOutcomeOf(new LateAnswerError('late', 'landed', 4000))).toBe('landed');
    expect(keyOutcomeOf(new LateAnswerError('late', 'unknown', 4000))).toBe('unknown');
    expect(keyOutcomeOf(new TimeoutError('no answer, and none to the re-read', 4000))).toBe('unknown');
    expect(keyOutcomeOf(new ConnectionError('reset mid-request'))).toBe('unknown');
  });

  it('says NOT SENT for a cue that provably never left, and leaves a refusal or a link down to the alert', () => {
    expect(keyOutcomeOf(new TimeoutError('waited too long behind others', 3000, undefined, { mayHaveReachedServer: false }))).toBe('not-sent');
    expect(keyOutcomeOf(new ConnectionError('the server has not answered since', undefined, { mayHaveReachedServer: false }))).toBeUndefined();
    expect(keyOutcomeOf(new StatusError('refused', 4000, []))).toBeUndefined();
  });
});
