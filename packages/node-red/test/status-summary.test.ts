import { ClosedError, ConfirmationRequiredError, InvalidInputError, StagelinkError, TimeoutError } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { errorSummary } from '../src/shared/status.js';

describe('the few words a failing node shows', () => {
  it('are chosen by the error code, so a subclass of core gets its own words', () => {
    expect(errorSummary(new TimeoutError('no answer within 4000 ms', 4000))).toBe('no answer');
    expect(errorSummary(new ConfirmationRequiredError('failovermachine was not sent'))).toBe('not confirmed');
    expect(errorSummary(new InvalidInputError('No track given'))).toBe('invalid input');
    expect(errorSummary(new ClosedError('The client is closed'))).toBe('closed');
  });

  it('say "failed" for anything else', () => {
    expect(errorSummary(new StagelinkError('something'))).toBe('failed');
    expect(errorSummary(new Error('plain'))).toBe('failed');
    expect(errorSummary('text')).toBe('failed');
  });
});
