import { describe, expect, it } from 'vitest';
import type { BridgeAdapter, Member, StateEvent } from '../src/session-events.js';
import { SessionStateStream } from '../src/session-state.js';
import { STALE_REASONS } from '../src/stale-reasons.js';

/** An output that keeps what it is told, as any adapter is told it: typed events, no topic anywhere. */
class FakeAdapter implements BridgeAdapter {
  readonly told: (['start'] | ['state', StateEvent] | ['added', Member] | ['removed', Member] | ['close'])[] = [];
  start(): void {
    this.told.push(['start']);
  }
  state(event: StateEvent): void {
    this.told.push(['state', event]);
  }
  added(member: Member): void {
    this.told.push(['added', member]);
  }
  removed(member: Member): void {
    this.told.push(['removed', member]);
  }
  close(): void {
    this.told.push(['close']);
  }
}

const fps = (which: string, value: number): StateEvent => ({ what: 'machine', which, part: 'fps', value: { value, average: value, alert: 'ok' } });

describe('the stream of the session state', () => {
  it('tells an adapter what came, each value once as it changes, its stale marks, and what left', () => {
    const stream = new SessionStateStream();
    const adapter = new FakeAdapter();
    stream.use(adapter);
    stream.start();
    const nodeA: Member = { what: 'machine', which: 'node-a' };
    stream.added(nodeA);
    stream.added(nodeA);
    stream.state(fps('node-a', 60));
    stream.state(fps('node-a', 60));
    stream.markStale({ what: 'machine', which: 'node-a', part: 'fps' }, STALE_REASONS.noLink);
    stream.markStale({ what: 'machine', which: 'node-a', part: 'fps' }, STALE_REASONS.noLink);
    stream.state(fps('node-a', 59));
    stream.state({ what: 'session', part: 'health', value: { severity: 'ok' } });
    stream.removed(nodeA);
    // A late live value of a machine that left is not passed on, nor is a mark of a value it no longer has.
    stream.state(fps('node-a', 58));
    stream.markStale({ what: 'machine', which: 'node-a', part: 'fps' }, STALE_REASONS.readFailed);
    stream.removed(nodeA);
    expect(adapter.told).toEqual([
      ['start'],
      ['added', nodeA],
      ['state', fps('node-a', 60)],
      ['state', { ...fps('node-a', 60), marks: { stale: true, reason: 'no link' } }],
      ['state', fps('node-a', 59)],
      ['state', { what: 'session', part: 'health', value: { severity: 'ok' } }],
      ['removed', nodeA],
    ]);
    expect(stream.events()).toEqual([{ what: 'session', part: 'health', value: { severity: 'ok' } }]);
    expect(stream.members()).toEqual([]);
  });

  it('passes no value of a machine or transport that was never added', () => {
    const stream = new SessionStateStream();
    const adapter = new FakeAdapter();
    stream.use(adapter);
    stream.state({ what: 'transport', which: 'main', part: 'state', value: { playmode: 'Play', playing: true, track: null, volume: 1, brightness: 1, engaged: true } });
    expect(adapter.told).toEqual([]);
    stream.added({ what: 'transport', which: 'main' });
    expect(stream.members('transport')).toEqual([{ what: 'transport', which: 'main' }]);
    expect(stream.members('machine')).toEqual([]);
  });
});
