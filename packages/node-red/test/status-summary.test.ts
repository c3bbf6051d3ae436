import { AbortedError, ClosedError, ConfirmationRequiredError, ConnectionError, InvalidInputError, LateAnswerError, StagelinkError, StalledAnswerError, TimeoutError } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import english from '../src/nodes/stagelink-server/locales/en-US/stagelink-server.json' with { type: 'json' };
import type { Node, NodeStatus } from '../src/shared/node-red.js';
import { errorSummary, StatusLine } from '../src/shared/status.js';

describe('the few words a failing node shows', () => {
  it('are chosen by the error code, so a subclass of core gets its own words', () => {
    expect(errorSummary(new TimeoutError('no answer within 4000 ms', 4000))).toBe('no answer');
    expect(errorSummary(new ConfirmationRequiredError('failovermachine was not sent'))).toBe('not confirmed');
    expect(errorSummary(new InvalidInputError('No track given'))).toBe('invalid input');
    expect(errorSummary(new ClosedError('The client is closed'))).toBe('closed');
  });

  it('are the catalog\'s words for every code it has words for, and no list to keep beside it', () => {
    const summaries = Object.entries(english['stagelink-server'].summary).filter(([code]) => code !== 'failed');
    expect(summaries.length).toBeGreaterThan(10);
    for (const [code, words] of summaries) {
      const error = Object.assign(new StagelinkError('something'), { code });
      expect(errorSummary(error)).toBe(words);
    }
  });

  it('say "failed" for anything else', () => {
    expect(errorSummary(new StagelinkError('something'))).toBe('failed');
    expect(errorSummary(new Error('plain'))).toBe('failed');
    expect(errorSummary('text')).toBe('failed');
  });
});

describe('a failure on the status line', () => {
  const shownFor = (error: unknown): NodeStatus | undefined => {
    const shown: NodeStatus[] = [];
    const line = new StatusLine({ status: (status: NodeStatus) => shown.push(status) } as unknown as Node<never>);
    line.failed(error);
    line.close();
    return shown[0];
  };

  it('tells a machine whose large answers stall (reachable) from one that is down, in yellow', () => {
    expect(shownFor(new StalledAnswerError('the rest of its answer did not arrive', 5000))).toEqual({ fill: 'yellow', shape: 'dot', text: 'MTU? answers stall' });
    expect(shownFor(new ConnectionError('Could not reach 10.0.0.5'))).toEqual({ fill: 'red', shape: 'dot', text: 'unreachable' });
    expect(shownFor(new TimeoutError('no answer within 5000 ms', 5000))).toEqual({ fill: 'red', shape: 'dot', text: 'no answer' });
  });

  it('tells a cue that never left from one whose answer did not come', () => {
    const notSent = new TimeoutError('was not sent: the director was still being looked for', 5000, undefined, { mayHaveReachedServer: false });
    expect(shownFor(notSent)).toEqual({ fill: 'red', shape: 'dot', text: 'not sent: too late' });
    expect(errorSummary(new AbortedError('cancelled before it was sent', undefined, { mayHaveReachedServer: false }))).toBe('stopped, not sent');
    expect(errorSummary(new AbortedError('aborted by the caller'))).toBe('stopped');
  });

  it('says what became of a cue answered late: landed (yellow) or unknown (red)', () => {
    expect(shownFor(new LateAnswerError('it landed', 'landed', 5000))).toEqual({ fill: 'yellow', shape: 'dot', text: 'landed late' });
    expect(shownFor(new LateAnswerError('whether it landed is unknown', 'unknown', 5000))).toEqual({ fill: 'red', shape: 'dot', text: 'outcome unknown' });
  });
});
