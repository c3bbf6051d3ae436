import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveUpdateError } from '../src/index.js';
import type { ClientFrame } from '../src/live/protocol.js';
import { FRAME_SPACING_MS, SubscriptionRegistry, type Consumer, type LiveValue } from '../src/live/subscription-registry.js';

const OBJECT = 'subsystem:MonitoringManager.findLocalMonitor("fps")';
const PROPERTY = 'object.seriesAverage("Actual", 1)';

function consumer(intervalMs = 100) {
  const values: LiveValue[] = [];
  const errors: LiveUpdateError[] = [];
  const it: Consumer = { intervalMs, lastDelivery: -Infinity, onValue: (v) => values.push(v), onError: (e) => errors.push(e) };
  return { it, values, errors };
}

describe('SubscriptionRegistry', () => {
  let sent: ClientFrame[];
  let now: number;
  let registry: SubscriptionRegistry;
  const problems: LiveUpdateError[] = [];

  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    now = 0;
    registry = new SubscriptionRegistry({ send: (f) => (sent.push(f), true), isOpen: () => true, now: () => now, onProblem: (p) => problems.push(p) });
  });
  afterEach(() => {
    registry.dispose();
    vi.useRealTimers();
  });

  const list = (...ids: [number, string, string][]) =>
    registry.onFrame({ subscriptions: ids.map(([id, objectPath, propertyPath]) => ({ id, objectPath, propertyPath })) });

  it('shares one server subscription between identical requests', () => {
    const a = consumer();
    const b = consumer();
    registry.add(OBJECT, PROPERTY, a.it);
    registry.add(OBJECT, PROPERTY, b.it);
    expect(sent).toEqual([{ subscribe: { object: OBJECT, properties: [PROPERTY], configuration: { updateFrequencyMs: 100 } } }]);
    list([0, OBJECT, PROPERTY]);
    registry.onFrame({ valuesChanged: [{ id: 0, value: 59.94 }] });
    expect(a.values).toEqual([{ object: OBJECT, property: PROPERTY, value: 59.94 }]);
    expect(b.values).toHaveLength(1);
  });

  it('treats id 0 as a real id and unsubscribes it when the last consumer leaves', () => {
    const a = consumer();
    const b = consumer();
    registry.add(OBJECT, PROPERTY, a.it);
    registry.add(OBJECT, PROPERTY, b.it);
    list([0, OBJECT, PROPERTY]);
    registry.remove(OBJECT, PROPERTY, a.it);
    expect(sent).toHaveLength(1);
    registry.remove(OBJECT, PROPERTY, b.it);
    expect(sent[1]).toEqual({ unsubscribe: { ids: [0] } });
    expect(registry.size).toBe(0);
  });

  it('keeps one subscribe frame in flight and sends the next on the reply', () => {
    registry.add(OBJECT, PROPERTY, consumer().it);
    registry.add(OBJECT, 'object.other()', consumer().it);
    expect(sent).toHaveLength(1);
    list([4, OBJECT, PROPERTY]);
    expect(sent).toHaveLength(2);
  });

  it('sends the next frame after a pause when the server does not reply', () => {
    registry.add(OBJECT, PROPERTY, consumer().it);
    registry.add(OBJECT, 'object.other()', consumer().it);
    vi.advanceTimersByTime(FRAME_SPACING_MS);
    expect(sent).toHaveLength(2);
  });

  it('remakes the server subscription when a faster consumer arrives, and thins values for the slower one', () => {
    const slow = consumer(300);
    const fast = consumer(100);
    registry.add(OBJECT, PROPERTY, slow.it);
    list([1, OBJECT, PROPERTY]);
    registry.add(OBJECT, PROPERTY, fast.it);
    expect(sent.slice(1)).toEqual([{ unsubscribe: { ids: [1] } }]);
    list();
    expect(sent[2]).toMatchObject({ subscribe: { configuration: { updateFrequencyMs: 100 } } });
    list([2, OBJECT, PROPERTY]);
    for (let i = 0; i < 6; i++) {
      now = i * 100;
      registry.onFrame({ valuesChanged: [{ id: 2, value: i }] });
    }
    expect(fast.values.map((v) => v.value)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(slow.values.map((v) => v.value)).toEqual([0, 3]);
  });

  it('gives a refused subscription to its consumers and retries an object that is not loaded yet', () => {
    const a = consumer();
    registry.add(OBJECT, PROPERTY, a.it);
    registry.onFrame({ error: `Unable to subscribe to ${OBJECT} / ${PROPERTY} - Unable to find object` });
    expect(a.errors[0]?.message).toContain('Unable to find object');
    vi.advanceTimersByTime(11_000);
    expect(sent.filter((f) => 'subscribe' in f)).toHaveLength(2);
  });

  it('gives a consumer joining a failed pair the error the first consumers got', async () => {
    const first = consumer();
    registry.add(OBJECT, PROPERTY, first.it);
    registry.onFrame({ error: `Unable to subscribe to ${OBJECT} / ${PROPERTY} - Invalid property` });
    const late = consumer();
    registry.add(OBJECT, PROPERTY, late.it);
    await Promise.resolve();
    expect(late.errors.map((e) => e.message)).toEqual(first.errors.map((e) => e.message));
    expect(late.errors[0]?.message).toContain('Invalid property');
  });

  it('gives a consumer joining a pair that has its value that value, without waiting for a change', async () => {
    const first = consumer();
    registry.add(OBJECT, PROPERTY, first.it);
    list([0, OBJECT, PROPERTY]);
    registry.onFrame({ valuesChanged: [{ id: 0, value: ['ACTOR01:d3'] }] });
    const late = consumer();
    registry.add(OBJECT, PROPERTY, late.it);
    expect(late.values).toEqual([]);
    await Promise.resolve();
    expect(late.values).toEqual([{ object: OBJECT, property: PROPERTY, value: ['ACTOR01:d3'] }]);
    expect(first.values).toHaveLength(1);
  });

  it('gives a late consumer no value from before a reconnect', async () => {
    registry.add(OBJECT, PROPERTY, consumer().it);
    list([0, OBJECT, PROPERTY]);
    registry.onFrame({ valuesChanged: [{ id: 0, value: 59.94 }] });
    registry.onOpen();
    const late = consumer();
    registry.add(OBJECT, PROPERTY, late.it);
    await Promise.resolve();
    expect(late.values).toEqual([]);
  });

  it('tells a consumer that joins and leaves a failed pair at once nothing', async () => {
    registry.add(OBJECT, PROPERTY, consumer().it);
    registry.onFrame({ error: `Unable to subscribe to ${OBJECT} / ${PROPERTY} - Invalid property` });
    const late = consumer();
    registry.add(OBJECT, PROPERTY, late.it);
    registry.remove(OBJECT, PROPERTY, late.it);
    await Promise.resolve();
    expect(late.errors).toEqual([]);
  });

  it('passes a property error value to consumers as an error, not a value', () => {
    const a = consumer();
    registry.add(OBJECT, PROPERTY, a.it);
    list([0, OBJECT, PROPERTY]);
    registry.onFrame({ valuesChanged: [{ id: 0, value: { errorType: 'EvaluationError', message: 'no series' } }] });
    expect(a.values).toHaveLength(0);
    expect(a.errors[0]?.message).toContain('no series');
  });

  it('subscribes everything again on a new socket', () => {
    registry.add(OBJECT, PROPERTY, consumer().it);
    list([0, OBJECT, PROPERTY]);
    registry.onClose();
    registry.onOpen();
    expect(sent.filter((f) => 'subscribe' in f)).toHaveLength(2);
  });

  it('drops subscription entries and value changes of the wrong shape without throwing (hardening)', () => {
    const a = consumer();
    registry.add(OBJECT, PROPERTY, a.it);
    const malformed = [
      { subscriptions: [null, 5, 'a', {}, { id: '0', objectPath: OBJECT, propertyPath: PROPERTY }] },
      { valuesChanged: [null, 7, [], { id: null }, { value: 1 }] },
    ] as unknown as Parameters<SubscriptionRegistry['onFrame']>[0][];
    for (const frame of malformed) expect(() => registry.onFrame(frame)).not.toThrow();
    list([0, OBJECT, PROPERTY]);
    registry.onFrame({ valuesChanged: [null, { id: 0, value: 59.94 }] } as unknown as Parameters<SubscriptionRegistry['onFrame']>[0]);
    expect(a.values).toEqual([{ object: OBJECT, property: PROPERTY, value: 59.94 }]);
  });

  it('unsubscribes a pair whose consumers all left while the subscribe was in flight', () => {
    const a = consumer();
    registry.add(OBJECT, PROPERTY, a.it);
    registry.remove(OBJECT, PROPERTY, a.it);
    list([7, OBJECT, PROPERTY]);
    expect(sent.at(-1)).toEqual({ unsubscribe: { ids: [7] } });
  });

  describe('writes', () => {
    it('sends a write with the server id once the pair has one, and not before', async () => {
      registry.add(OBJECT, PROPERTY, consumer().it);
      const written = registry.write(OBJECT, PROPERTY, 0.95);
      expect(sent.filter((f) => 'set' in f)).toEqual([]);
      list([0, OBJECT, PROPERTY]);
      await written;
      expect(sent.filter((f) => 'set' in f)).toEqual([{ set: [{ id: 0, value: 0.95 }] }]);
    });

    it('refuses a write to a pair nobody watches, or one the server refused', async () => {
      await expect(registry.write(OBJECT, PROPERTY, 1)).rejects.toThrow(/not watched/);
      registry.add(OBJECT, PROPERTY, consumer().it);
      registry.onFrame({ error: `Unable to subscribe to ${OBJECT} / ${PROPERTY} - Invalid property` });
      await expect(registry.write(OBJECT, PROPERTY, 1)).rejects.toThrow(/Invalid property/);
    });

    it('fails a waiting write when the stream drops instead of sending it late', async () => {
      registry.add(OBJECT, PROPERTY, consumer().it);
      const written = registry.write(OBJECT, PROPERTY, 0.5);
      registry.onClose();
      await expect(written).rejects.toThrow(/dropped/);
      registry.onOpen();
      list([4, OBJECT, PROPERTY]);
      expect(sent.filter((f) => 'set' in f)).toEqual([]);
    });
  });
});
