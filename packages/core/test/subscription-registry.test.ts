import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveFrameRefusedError, type LiveUpdateError } from '../src/index.js';
import type { ClientFrame } from '../src/live/protocol.js';
import { FRAME_GAP_MS, resendGapMs } from '../src/live/frame-pacer.js';
import { FRAME_SPACING_MS, LOST_FRAME_TRIES, SubscriptionRegistry, type Consumer, type LiveValue } from '../src/live/subscription-registry.js';

const OBJECT = 'subsystem:MonitoringManager.findLocalMonitor("fps")';
const PROPERTY = 'object.seriesAverage("Actual", 1)';

function consumer(intervalMs = 100) {
  const values: LiveValue[] = [];
  const errors: LiveUpdateError[] = [];
  const stale: boolean[] = [];
  const it: Consumer = { intervalMs, onValue: (v) => values.push(v), onError: (e) => errors.push(e), onStale: (s) => stale.push(s) };
  return { it, values, errors, stale };
}

describe('SubscriptionRegistry', () => {
  let sent: ClientFrame[];
  let registry: SubscriptionRegistry;
  let problems: LiveUpdateError[];

  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    problems = [];
    registry = new SubscriptionRegistry({ send: (f) => (sent.push(f), true), isOpen: () => true, now: () => Date.now(), onProblem: (p) => problems.push(p) });
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

  it('remakes the server subscription when a faster consumer arrives, and paces values for the slower one', () => {
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
      registry.onFrame({ valuesChanged: [{ id: 2, value: i }] });
      vi.advanceTimersByTime(100);
    }
    expect(fast.values.map((v) => v.value)).toEqual([0, 1, 2, 3, 4, 5]);
    // At most one value per interval (less 10 % slack), the newest when each interval ends: it ends on the latest.
    expect(slow.values.map((v) => v.value)).toEqual([0, 2, 5]);
  });

  it('hands a value over once when a busy event loop reads a frame before the overdue interval timer', () => {
    const fast = consumer(100);
    const slow = consumer(500);
    registry.add(OBJECT, PROPERTY, fast.it);
    registry.add(OBJECT, PROPERTY, slow.it);
    list([0, OBJECT, PROPERTY]);
    registry.onFrame({ valuesChanged: [{ id: 0, value: 0 }] });
    vi.advanceTimersByTime(100);
    registry.onFrame({ valuesChanged: [{ id: 0, value: 1 }] });
    // The loop was blocked past the slow interval: the clock moved, its timer has not run yet.
    vi.setSystemTime(Date.now() + 600);
    registry.onFrame({ valuesChanged: [{ id: 0, value: 2 }] });
    vi.advanceTimersByTime(1000);
    expect(slow.values.map((v) => v.value)).toEqual([0, 2]);
  });

  it('hands a slower consumer the latest value when the server sends nothing after it', () => {
    const fast = consumer(100);
    const slow = consumer(1000);
    registry.add(OBJECT, PROPERTY, fast.it);
    registry.add(OBJECT, PROPERTY, slow.it);
    list([0, OBJECT, PROPERTY]);
    registry.onFrame({ valuesChanged: [{ id: 0, value: 0.5 }] });
    vi.advanceTimersByTime(40);
    registry.onFrame({ valuesChanged: [{ id: 0, value: 0.7 }] });
    expect(slow.values.map((v) => v.value)).toEqual([0.5]);
    vi.advanceTimersByTime(2500);
    expect(slow.values.map((v) => v.value)).toEqual([0.5, 0.7]);
    expect(fast.values.map((v) => v.value)).toEqual([0.5, 0.7]);
  });

  it('gives a refused subscription to its consumers and retries an object that is not loaded yet', () => {
    const a = consumer();
    registry.add(OBJECT, PROPERTY, a.it);
    registry.onFrame({ error: `Unable to subscribe to ${OBJECT} / ${PROPERTY} - Unable to find object` });
    expect(a.errors[0]?.message).toContain('Unable to find object');
    vi.advanceTimersByTime(1500);
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
  describe('answers matched by what they name, on a director that answers late', () => {
    const MISSING = 'subsystem:MonitoringManager.findRemoteMonitor("NOSUCHMONITOR:d3", "fps")';

    it('fails the pair an error names, not the subscribe in flight when it arrives', () => {
      const missing = consumer();
      const fps = consumer();
      registry.add(MISSING, PROPERTY, missing.it);
      registry.add(OBJECT, PROPERTY, fps.it);
      vi.advanceTimersByTime(FRAME_SPACING_MS); // no answer yet: the FPS subscribe goes out
      expect(sent).toHaveLength(2);
      registry.onFrame({ error: `Unable to subscribe to ${MISSING} / ${PROPERTY} - NoSuchMonitor` });
      expect(fps.errors).toEqual([]);
      expect(missing.errors[0]?.message).toContain('NoSuchMonitor');
      list([3, OBJECT, PROPERTY]);
      registry.onFrame({ valuesChanged: [{ id: 3, value: 59.94 }] });
      expect(fps.values.map((v) => v.value)).toEqual([59.94]);
    });

    it('matches an object whose own text holds " / " and " - " by the whole pair, the longest first', () => {
      const odd = 'subsystem:Tricky.find("a / b - c")';
      const short = consumer();
      const long = consumer();
      registry.add('subsystem:Tricky.find("a', PROPERTY, short.it);
      registry.add(odd, PROPERTY, long.it);
      registry.onFrame({ error: `Unable to subscribe to ${odd} / ${PROPERTY} - Invalid property` });
      expect(long.errors).toHaveLength(1);
      expect(short.errors).toEqual([]);
    });

    it('blames an error that names no pair only when exactly one subscribe awaits its answer', () => {
      const a = consumer();
      const b = consumer();
      registry.add(OBJECT, PROPERTY, a.it);
      registry.onFrame({ error: 'Unable to subscribe: something went wrong' });
      expect(a.errors).toHaveLength(1);
      registry.add(OBJECT, 'object.first()', consumer().it);
      registry.add(OBJECT, 'object.second()', b.it);
      vi.advanceTimersByTime(FRAME_SPACING_MS);
      registry.onFrame({ error: 'Unable to subscribe: something went wrong' });
      expect(b.errors).toEqual([]);
      expect(problems.at(-1)?.message).toContain('something went wrong');
    });

    it('activates a pair from a list that comes after the next subscribe went out', () => {
      const first = consumer();
      const second = consumer();
      registry.add(OBJECT, PROPERTY, first.it);
      registry.add(OBJECT, 'object.other()', second.it);
      vi.advanceTimersByTime(FRAME_SPACING_MS);
      list([1, OBJECT, PROPERTY]);
      list([1, OBJECT, PROPERTY], [2, OBJECT, 'object.other()']);
      registry.onFrame({ valuesChanged: [{ id: 1, value: 'a' }, { id: 2, value: 'b' }] });
      expect(first.values.map((v) => v.value)).toEqual(['a']);
      expect(second.values.map((v) => v.value)).toEqual(['b']);
    });

    it('never fails the next subscribe for a refused write', () => {
      const written = consumer();
      const next = consumer();
      registry.add(OBJECT, PROPERTY, written.it);
      void registry.write(OBJECT, PROPERTY, 0.5);
      list([0, OBJECT, PROPERTY]);
      registry.add(OBJECT, 'object.next()', next.it);
      registry.onFrame({ error: `Unable to set ${OBJECT} / ${PROPERTY} - read-only property` });
      registry.onFrame({ error: 'Unable to set: no subscription with id 9' });
      expect(next.errors).toEqual([]);
      expect(written.errors).toEqual([]);
      expect(problems.map((p) => p.message).join('\n')).toContain(`refused a write of ${PROPERTY} on ${OBJECT}`);
    });

    it('does not hand a pair back an id it unsubscribed when a late list still holds it', () => {
      const fast = consumer(100);
      registry.add(OBJECT, PROPERTY, consumer(300).it);
      list([1, OBJECT, PROPERTY]);
      registry.add(OBJECT, PROPERTY, fast.it); // remade: unsubscribe 1, subscribe again
      vi.advanceTimersByTime(FRAME_SPACING_MS);
      list([1, OBJECT, PROPERTY]); // late: from before the unsubscribe
      registry.onFrame({ valuesChanged: [{ id: 1, value: 'old' }] });
      list();
      list([2, OBJECT, PROPERTY]);
      registry.onFrame({ valuesChanged: [{ id: 2, value: 'new' }] });
      expect(fast.values.map((v) => v.value)).toEqual(['new']);
    });

    it('follows a pair the server renumbered and subscribes again one it dropped', () => {
      const a = consumer();
      const b = consumer();
      registry.add(OBJECT, PROPERTY, a.it);
      list([1, OBJECT, PROPERTY]);
      registry.add(OBJECT, 'object.other()', b.it);
      list([7, OBJECT, PROPERTY], [2, OBJECT, 'object.other()']);
      registry.onFrame({ valuesChanged: [{ id: 7, value: 'renumbered' }] });
      expect(a.values.map((v) => v.value)).toEqual(['renumbered']);
      list([7, OBJECT, PROPERTY]);
      expect(sent.at(-1)).toMatchObject({ subscribe: { object: OBJECT, properties: ['object.other()'] } });
    });
  });

  describe('silence', () => {
    const subscribes = () => sent.filter((f) => 'subscribe' in f).length;
    const unsubscribes = () => sent.filter((f) => 'unsubscribe' in f).length;

    it('probes a pair that went quiet and reports nothing when the probe brings the current value', () => {
      const a = consumer();
      registry.add(OBJECT, PROPERTY, a.it);
      list([0, OBJECT, PROPERTY]);
      for (let second = 0; second < 40; second++) {
        const before = subscribes();
        vi.advanceTimersByTime(1000);
        if (subscribes() > before) {
          list([second + 1, OBJECT, PROPERTY]);
          registry.onFrame({ valuesChanged: [{ id: second + 1, value: 0.5 }] }); // a brightness: the same value
        }
      }
      expect(a.stale).toEqual([]);
      expect(subscribes()).toBeGreaterThan(3);
      expect(subscribes() - unsubscribes()).toBe(1); // one server subscription, whatever the probes
    });

    it('reports a pair stale when its probe brings nothing, and live with the next value', () => {
      const a = consumer();
      registry.add(OBJECT, PROPERTY, a.it);
      list([0, OBJECT, PROPERTY]);
      registry.onFrame({ valuesChanged: [{ id: 0, value: 60 }] });
      vi.advanceTimersByTime(5000);
      expect(sent.slice(-1)).toEqual([{ unsubscribe: { ids: [0] } }]);
      list();
      list([1, OBJECT, PROPERTY]);
      expect(a.stale).toEqual([]);
      vi.advanceTimersByTime(5000);
      expect(a.stale).toEqual([true]);
      vi.advanceTimersByTime(60_000);
      expect(a.stale).toEqual([true]);
      list([5, OBJECT, PROPERTY]); // a later probe is answered
      registry.onFrame({ valuesChanged: [{ id: 5, value: 59.94 }] });
      expect(a.stale).toEqual([true, false]);
      expect(a.values.map((v) => v.value)).toEqual([60, 59.94]);
    });

    it('keeps probing a stale pair on a growing pause', () => {
      registry.add(OBJECT, PROPERTY, consumer().it);
      list([0, OBJECT, PROPERTY]);
      const times: number[] = [];
      let last = subscribes();
      for (let t = 0; t < 120_000; t += 500) {
        vi.advanceTimersByTime(500);
        if (subscribes() > last) times.push(t + 500);
        last = subscribes();
      }
      const gaps = times.slice(1).map((time, i) => time - (times[i] as number));
      expect(gaps.length).toBeGreaterThan(3);
      expect(gaps[1]).toBeGreaterThan(gaps[0] as number);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(20_000);
    });

    it('asks again for a pair whose id never came and reports it stale', () => {
      const a = consumer();
      registry.add(OBJECT, PROPERTY, a.it);
      vi.advanceTimersByTime(5000);
      expect(a.stale).toEqual([true]);
      vi.advanceTimersByTime(5000);
      expect(subscribes()).toBe(2);
      list([4, OBJECT, PROPERTY]);
      registry.onFrame({ valuesChanged: [{ id: 4, value: 1 }] });
      expect(a.stale).toEqual([true, false]);
    });

    it('gives back every reference it asked for, so a pair asked again before its id came is never stuck on a retired id', () => {
      const a = consumer();
      registry.add(OBJECT, PROPERTY, a.it);
      vi.advanceTimersByTime(10_000); // no answer: stale, then asked again
      expect(subscribes()).toBe(2);
      // A server counts references to identical subscriptions: this pair holds two, under one id.
      list([3, OBJECT, PROPERTY]);
      registry.onFrame({ valuesChanged: [{ id: 3, value: 1 }] });
      expect(a.stale).toEqual([true, false]);
      vi.advanceTimersByTime(5000); // quiet: probed
      expect(sent.at(-1)).toEqual({ unsubscribe: { ids: [3] } });
      list([3, OBJECT, PROPERTY]); // one reference left
      expect(sent.at(-1)).toEqual({ unsubscribe: { ids: [3] } });
      expect(unsubscribes()).toBe(2);
      list(); // none left
      expect(sent.at(-1)).toMatchObject({ subscribe: { object: OBJECT } });
      list([3, OBJECT, PROPERTY]); // the probe's subscribe, under the same id again
      registry.onFrame({ valuesChanged: [{ id: 3, value: 2 }] });
      expect(a.values.map((v) => v.value)).toEqual([1, 2]);
      expect(a.stale).toEqual([true, false]);
    });

    it('tells a consumer joining a stale pair that it is stale', async () => {
      registry.add(OBJECT, PROPERTY, consumer().it);
      vi.advanceTimersByTime(5000);
      const late = consumer();
      registry.add(OBJECT, PROPERTY, late.it);
      await Promise.resolve();
      expect(late.stale).toEqual([true]);
    });
  });

  describe('writes held for an id', () => {
    it('fails a write whose subscription gets no id within the bound, unsent', async () => {
      registry.add(OBJECT, PROPERTY, consumer().it);
      const written = registry.write(OBJECT, PROPERTY, 0.5);
      const outcome = expect(written).rejects.toThrow(/did not confirm the subscription within 2000 ms/);
      vi.advanceTimersByTime(2000);
      await outcome;
      list([0, OBJECT, PROPERTY]);
      expect(sent.filter((f) => 'set' in f)).toEqual([]);
    });

    it('subscribes a pair a write waits on before the others after a reconnect', () => {
      for (const property of ['object.a()', 'object.b()', 'object.c()', PROPERTY]) registry.add(OBJECT, property, consumer().it);
      registry.onClose();
      registry.onOpen();
      void registry.write(OBJECT, PROPERTY, 1).catch(() => undefined);
      const subscribed = sent.slice(-2).map((f) => ('subscribe' in f ? f.subscribe.properties[0] : undefined));
      list([9, OBJECT, 'object.a()']);
      const next = sent.at(-1);
      expect(subscribed[1]).toBe('object.a()');
      expect(next).toMatchObject({ subscribe: { properties: [PROPERTY] } });
    });
  });

  describe('paced as shipping directors need: never a frame right behind an unanswered one', () => {
    const sets = () => sent.filter((frame) => 'set' in frame);

    it('holds a write while a subscribe waits for its answer, and sends it once the gap has passed', async () => {
      registry.add(OBJECT, PROPERTY, consumer().it);
      list([0, OBJECT, PROPERTY]);
      registry.add(OBJECT, 'object.other()', consumer().it); // in flight, unanswered
      const written = registry.write(OBJECT, PROPERTY, 0.5);
      expect(sets()).toEqual([]);
      vi.advanceTimersByTime(FRAME_GAP_MS);
      await written;
      expect(sets()).toEqual([{ set: [{ id: 0, value: 0.5 }] }]);
    });

    it('sends writes to one pair made within the gap as one frame with the newest value', async () => {
      registry.add(OBJECT, PROPERTY, consumer().it);
      list([0, OBJECT, PROPERTY]);
      const writes = [0.1, 0.2, 0.3].map((value) => registry.write(OBJECT, PROPERTY, value));
      vi.advanceTimersByTime(FRAME_GAP_MS);
      await Promise.all(writes);
      expect(sets()).toEqual([{ set: [{ id: 0, value: 0.1 }] }, { set: [{ id: 0, value: 0.3 }] }]);
    });

    it('merges objects written within the gap, as the server merges them', async () => {
      registry.add(OBJECT, PROPERTY, consumer().it);
      list([0, OBJECT, PROPERTY]);
      const first = registry.write(OBJECT, PROPERTY, { x: 0 });
      const writes = [{ x: 1 }, { y: 2 }].map((value) => registry.write(OBJECT, PROPERTY, value));
      vi.advanceTimersByTime(FRAME_GAP_MS);
      await Promise.all([first, ...writes]);
      expect(sets().at(-1)).toEqual({ set: [{ id: 0, value: { x: 1, y: 2 } }] });
    });

    it('brings 40 subscriptions up one at a time, each after the answer to the one before', () => {
      const properties = Array.from({ length: 40 }, (_, i) => `object.value(${i})`);
      for (const property of properties) registry.add(OBJECT, property, consumer().it);
      const listed: [number, string, string][] = [];
      for (let i = 0; i < properties.length; i++) {
        expect(sent).toHaveLength(i + 1);
        listed.push([i, OBJECT, properties[i] as string]);
        list(...listed);
      }
      expect(sent).toHaveLength(40);
    });

    it('writes again a value whose frame the server dropped as "Invalid JSON", unless a newer one waits', async () => {
      registry.add(OBJECT, PROPERTY, consumer().it);
      registry.add(OBJECT, 'object.other()', consumer().it);
      list([0, OBJECT, PROPERTY]);
      list([0, OBJECT, PROPERTY], [1, OBJECT, 'object.other()']);
      await registry.write(OBJECT, PROPERTY, 0.5);
      registry.onFrame({ error: 'Invalid JSON' });
      vi.advanceTimersByTime(FRAME_GAP_MS);
      expect(sets()).toEqual([{ set: [{ id: 0, value: 0.5 }] }, { set: [{ id: 0, value: 0.5 }] }]);
      const written = registry.write(OBJECT, 'object.other()', 1);
      vi.advanceTimersByTime(FRAME_GAP_MS);
      await written;
      registry.onFrame({ error: 'Invalid JSON' });
      const newer = registry.write(OBJECT, 'object.other()', 2);
      // The second frame lost in a row: the pause has doubled.
      vi.advanceTimersByTime(resendGapMs(2));
      await newer;
      expect(sets().slice(2)).toEqual([{ set: [{ id: 1, value: 1 }] }, { set: [{ id: 1, value: 2 }] }]);
    });

    it('never writes a lost value again over a newer one that went since: the control stays where it was moved', async () => {
      registry.add(OBJECT, PROPERTY, consumer().it);
      list([0, OBJECT, PROPERTY]);
      vi.advanceTimersByTime(1000);
      await registry.write(OBJECT, PROPERTY, 0.5);
      // A page flip asks for another value between two moves of the fader.
      registry.add(OBJECT, 'object.other()', consumer().it);
      vi.advanceTimersByTime(FRAME_GAP_MS);
      const newer = registry.write(OBJECT, PROPERTY, 0.7);
      vi.advanceTimersByTime(FRAME_SPACING_MS);
      await newer;
      registry.onFrame({ error: 'Invalid JSON' });
      vi.advanceTimersByTime(2000);
      expect(sets().map((frame) => ('set' in frame ? frame.set[0]?.value : undefined))).toEqual([0.5, 0.7]);
    });

    it('takes a set sent while a subscribe was unanswered for the frame the server lost, and keeps waiting for the subscribe\'s answer', async () => {
      registry.add(OBJECT, PROPERTY, consumer().it);
      list([0, OBJECT, PROPERTY]);
      vi.advanceTimersByTime(1000);
      registry.add(OBJECT, 'object.other()', consumer().it);
      const written = registry.write(OBJECT, PROPERTY, 0.7);
      vi.advanceTimersByTime(FRAME_GAP_MS);
      await written;
      registry.onFrame({ error: 'Invalid JSON' });
      list([0, OBJECT, PROPERTY], [1, OBJECT, 'object.other()']);
      vi.advanceTimersByTime(2000);
      expect(sets().map((frame) => ('set' in frame ? frame.set[0]?.value : undefined))).toEqual([0.7, 0.7]);
      expect(sent.filter((frame) => 'subscribe' in frame && frame.subscribe.properties.includes('object.other()'))).toHaveLength(1);
    });

    it('sends again a frame the server dropped as "Invalid JSON" after the frame gap, failing no subscription', () => {
      const a = consumer();
      registry.add(OBJECT, PROPERTY, a.it);
      registry.onFrame({ error: 'Invalid JSON' });
      expect(a.errors).toEqual([]);
      expect(sent).toHaveLength(1);
      vi.advanceTimersByTime(FRAME_GAP_MS);
      expect(sent).toHaveLength(2);
      expect(sent[1]).toEqual(sent[0]);
      list([0, OBJECT, PROPERTY]);
      registry.onFrame({ valuesChanged: [{ id: 0, value: 59.94 }] });
      expect(a.values.map((v) => v.value)).toEqual([59.94]);
    });
  });

  describe('a director that loses every frame ("Invalid JSON" to each)', () => {
    /** Answers every frame the registry sends, now and later, with "Invalid JSON": the storm's setting. */
    const loseEveryFrame = () => {
      let answered = sent.length;
      const answer = () => {
        while (answered < sent.length) {
          answered++;
          registry.onFrame({ error: 'Invalid JSON' });
        }
      };
      const timer = setInterval(answer, 1);
      answer();
      return () => clearInterval(timer);
    };

    it('waits a pause that doubles from the frame gap up to a second after each frame lost in a row', () => {
      expect(Array.from({ length: 7 }, (_, i) => resendGapMs(i + 1))).toEqual([40, 80, 160, 320, 640, 1000, 1000]);
    });

    it('sends a lost subscribe again after a growing pause, then fails the subscription with a clear error, and asks a trickle after', () => {
      const a = consumer();
      const times: number[] = [];
      registry = new SubscriptionRegistry({ send: (f) => (sent.push(f), times.push(Date.now()), true), isOpen: () => true, now: () => Date.now(), onProblem: (p) => problems.push(p) });
      const stop = loseEveryFrame();
      registry.add(OBJECT, PROPERTY, a.it);
      vi.advanceTimersByTime(3000);
      expect(sent).toHaveLength(LOST_FRAME_TRIES);
      const gaps = times.slice(1).map((time, i) => time - (times[i] as number));
      gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(resendGapMs(i + 1)));
      expect(a.errors).toHaveLength(1);
      const [error] = a.errors;
      expect(error).toBeInstanceOf(LiveFrameRefusedError);
      expect(error?.code).toBe('STAGELINK_ERR_LIVE_FRAME_REFUSED');
      expect(error?.message).toContain(`${PROPERTY} on ${OBJECT}`);
      expect(error?.message).toContain('"Invalid JSON"');
      // Asked for again after a probe's pause, and only a few frames a round: never a storm.
      vi.advanceTimersByTime(30_000);
      expect(sent.length).toBeGreaterThan(LOST_FRAME_TRIES);
      expect(sent.length).toBeLessThanOrEqual(4 * LOST_FRAME_TRIES);
      stop();
    });

    it('brings a subscription that gave up up on the next socket', () => {
      const a = consumer();
      const stop = loseEveryFrame();
      registry.add(OBJECT, PROPERTY, a.it);
      vi.advanceTimersByTime(3000);
      stop();
      expect(a.errors).toHaveLength(1);
      registry.onClose();
      registry.onOpen();
      expect(sent.at(-1)).toMatchObject({ subscribe: { object: OBJECT } });
      list([0, OBJECT, PROPERTY]);
      registry.onFrame({ valuesChanged: [{ id: 0, value: 59.94 }] });
      expect(a.values.map((v) => v.value)).toEqual([59.94]);
    });

    it('gives up a write the server keeps losing, telling the problem, and sends it no more', async () => {
      registry.add(OBJECT, PROPERTY, consumer().it);
      list([0, OBJECT, PROPERTY]);
      const stop = loseEveryFrame();
      await registry.write(OBJECT, PROPERTY, 0.5);
      vi.advanceTimersByTime(10_000);
      stop();
      expect(sent.filter((frame) => 'set' in frame)).toHaveLength(LOST_FRAME_TRIES);
      const refused = problems.find((problem) => problem instanceof LiveFrameRefusedError);
      expect(refused?.message).toMatch(/object\.seriesAverage.*not written.*"Invalid JSON"/);
    });
  });

  describe('a hand on a fader that never pauses', () => {
    it('sends a subscribe that is due between its writes, and writes on at the frame gap', () => {
      registry.add(OBJECT, PROPERTY, consumer().it);
      list([0, OBJECT, PROPERTY]);
      const drag = setInterval(() => void registry.write(OBJECT, PROPERTY, Math.random()).catch(() => undefined), 1000 / 60);
      vi.advanceTimersByTime(200);
      const asked = Date.now();
      registry.add(OBJECT, 'object.other()', consumer().it);
      let subscribedAt: number | undefined;
      for (let ms = 0; ms < 1000 && subscribedAt === undefined; ms++) {
        vi.advanceTimersByTime(1);
        if (sent.some((frame) => 'subscribe' in frame && frame.subscribe.properties[0] === 'object.other()')) subscribedAt = Date.now();
      }
      expect(subscribedAt).toBeDefined();
      expect((subscribedAt as number) - asked).toBeLessThanOrEqual(2 * FRAME_GAP_MS);
      const setsBefore = sent.filter((frame) => 'set' in frame).length;
      vi.advanceTimersByTime(400);
      clearInterval(drag);
      // The subscribe still waits for its answer: writes go on at the frame gap meanwhile.
      expect(sent.filter((frame) => 'set' in frame).length - setsBefore).toBeGreaterThanOrEqual(8);
    });
  });

  describe('probes of many quiet pairs on a director that answers late', () => {
    it('sends a new subscribe before the probes that wait, so it comes up after the frame in flight', () => {
      const properties = Array.from({ length: 20 }, (_, i) => `object.level(${i})`);
      for (const property of properties) registry.add(OBJECT, property, consumer().it);
      const listed = properties.map((property, i): [number, string, string] => [i, OBJECT, property]);
      for (let i = 0; i < properties.length; i++) list(...listed.slice(0, i + 1));
      for (let i = 0; i < properties.length; i++) registry.onFrame({ valuesChanged: [{ id: i, value: 1 }] });
      // Values that do not change are not sent again: every pair goes quiet and is probed, 40 frames queued.
      vi.advanceTimersByTime(5000);
      const probing = sent.length;
      expect(sent[probing - 1]).toEqual({ unsubscribe: { ids: [0] } });
      registry.add(OBJECT, PROPERTY, consumer().it);
      // The director answers late: the next frame goes once the one in flight has had its spacing.
      vi.advanceTimersByTime(FRAME_SPACING_MS);
      expect(sent[probing]).toMatchObject({ subscribe: { properties: [PROPERTY] } });
    });

    it('probes a value that does not change less often each time, up to 15 s apart, and every 5 s again once it changes', () => {
      const a = consumer();
      registry.add(OBJECT, PROPERTY, a.it);
      let value = 1;
      let id = 0;
      const subscribedAt: number[] = [];
      const start = Date.now();
      // The server: answers each frame at once, a subscribe with a new id and the current value.
      const serve = (seconds: number) => {
        for (let step = 0; step < seconds * 10; step++) {
          const frame = sent.shift();
          if (frame && 'subscribe' in frame) {
            subscribedAt.push((Date.now() - start) / 1000);
            list([++id, OBJECT, PROPERTY]);
            registry.onFrame({ valuesChanged: [{ id, value }] });
          } else if (frame) list();
          vi.advanceTimersByTime(100);
        }
      };
      serve(46);
      value = 2;
      registry.onFrame({ valuesChanged: [{ id, value }] });
      serve(10);
      expect(subscribedAt.map(Math.round)).toEqual([0, 5, 15, 30, 45, 51]);
      expect(a.stale).toEqual([]);
    });

    it('takes a late answer for the frame it answers: the frame sent since still waits for its own', () => {
      for (const property of ['object.a()', 'object.b()', 'object.c()']) registry.add(OBJECT, property, consumer().it);
      vi.advanceTimersByTime(FRAME_SPACING_MS);
      expect(sent).toHaveLength(2);
      list([0, OBJECT, 'object.a()']); // the answer to the first subscribe, a quarter of a second late
      vi.advanceTimersByTime(FRAME_GAP_MS);
      expect(sent).toHaveLength(2);
      list([0, OBJECT, 'object.a()'], [1, OBJECT, 'object.b()']);
      expect(sent).toHaveLength(3);
    });

    it('sends again the frame a late "Invalid JSON" answers, not the one that went last', () => {
      const a = consumer();
      const b = consumer();
      registry.add(OBJECT, 'object.a()', a.it);
      registry.add(OBJECT, 'object.b()', b.it);
      vi.advanceTimersByTime(FRAME_SPACING_MS);
      registry.onFrame({ error: 'Invalid JSON' }); // the first subscribe was lost
      list([0, OBJECT, 'object.b()']);
      vi.advanceTimersByTime(FRAME_SPACING_MS);
      expect(sent.map((frame) => ('subscribe' in frame ? frame.subscribe.properties[0] : frame))).toEqual(['object.a()', 'object.b()', 'object.a()']);
      list([0, OBJECT, 'object.b()'], [1, OBJECT, 'object.a()']);
      registry.onFrame({ valuesChanged: [{ id: 1, value: 'a' }, { id: 0, value: 'b' }] });
      expect([a.values.map((v) => v.value), b.values.map((v) => v.value)]).toEqual([['a'], ['b']]);
    });
  });

  describe('ids, probes and timers across reconnects', () => {
    const MISSING = 'transportmanager:not_loaded_yet';

    it('keeps the pair that now holds a refused pair\'s old id after a reconnect', () => {
      const missing = consumer();
      const fps = consumer();
      registry.add(MISSING, PROPERTY, missing.it);
      list([0, MISSING, PROPERTY]);
      registry.add(OBJECT, PROPERTY, fps.it);
      list([0, MISSING, PROPERTY], [1, OBJECT, PROPERTY]);
      registry.onClose();
      registry.onOpen(); // the missing pair is asked first; no answer yet, so the FPS pair follows
      vi.advanceTimersByTime(FRAME_SPACING_MS);
      list([0, OBJECT, PROPERTY]); // ids restart: the FPS pair now holds 0
      registry.onFrame({ error: `Unable to subscribe to ${MISSING} / ${PROPERTY} - Unable to find object` });
      registry.onFrame({ valuesChanged: [{ id: 0, value: 59.94 }] });
      expect(fps.values.map((v) => v.value)).toEqual([59.94]);
      expect(missing.errors).toHaveLength(1);
    });

    it('probes a pair taken back while its subscribe was in flight, and marks it stale when nothing comes', () => {
      const first = consumer();
      registry.add(OBJECT, PROPERTY, first.it);
      registry.remove(OBJECT, PROPERTY, first.it); // a page flip while the subscribe is in flight
      const back = consumer();
      registry.add(OBJECT, PROPERTY, back.it);
      vi.advanceTimersByTime(5000);
      expect(back.stale).toEqual([true]);
    });

    it('asks a subscribe that never got an answer again 5 s after it was marked stale, as documented', () => {
      const a = consumer();
      registry.add(OBJECT, PROPERTY, a.it);
      const subscribes = () => sent.filter((frame) => 'subscribe' in frame).length;
      vi.advanceTimersByTime(5000);
      expect(a.stale).toEqual([true]);
      vi.advanceTimersByTime(4999);
      expect(subscribes()).toBe(1);
      vi.advanceTimersByTime(1);
      expect(subscribes()).toBe(2);
    });

    it('hands a consumer joining during an outage no value from before the drop', async () => {
      const first = consumer();
      registry.add(OBJECT, PROPERTY, first.it);
      list([0, OBJECT, PROPERTY]);
      registry.onFrame({ valuesChanged: [{ id: 0, value: 59.94 }] });
      registry.onClose();
      const late = consumer();
      registry.add(OBJECT, PROPERTY, late.it);
      await Promise.resolve();
      vi.advanceTimersByTime(1000);
      expect(late.values).toEqual([]);
    });

    it('leaves no timer behind once the last consumer of a refused pair leaves', () => {
      const a = consumer();
      registry.add(MISSING, PROPERTY, a.it);
      registry.onFrame({ error: `Unable to subscribe to ${MISSING} / ${PROPERTY} - Unable to find object` });
      expect(a.errors).toHaveLength(1);
      expect(vi.getTimerCount()).toBeGreaterThan(0); // the retry while the project loads
      registry.remove(MISSING, PROPERTY, a.it);
      expect(vi.getTimerCount()).toBe(0);
    });
  });
});
