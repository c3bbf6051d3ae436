import { livePresets } from '@stagelink/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveLevelWriter } from '../../src/state/levels/live-level-writer.js';
import { settle, stubServer } from './stubs.js';

describe('writing a level through the live stream', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function writer() {
    const stub = stubServer();
    const live = new LiveLevelWriter(stub.asMediaServer, livePresets.transportVolume('main'), 500);
    const subscription = stub.live.open[0];
    if (!subscription) throw new Error('the writer subscribes at once');
    return { live, subscription, stub };
  }

  it('subscribes to the transport property core names', () => {
    const { subscription } = writer();
    expect(subscription.request).toEqual(livePresets.transportVolume('main'));
  });

  it('says no before the server has sent the value: it may not offer the property', async () => {
    const { live, subscription } = writer();
    expect(await live.write(0.5)).toBe(false);
    expect(subscription.set).not.toHaveBeenCalled();
  });

  it('lands when the server sends the value back, stored as a 32-bit float', async () => {
    const { live, subscription, stub } = writer();
    stub.live.emit(0.5);
    const landed = live.write(0.95);
    expect(subscription.set).toHaveBeenCalledWith(0.95);
    stub.live.emit(0.5);
    await settle();
    stub.live.emit(Math.fround(0.95));
    expect(await landed).toBe(true);
  });

  it('needs no echo for the value the server already has', async () => {
    const { live, stub } = writer();
    stub.live.emit(Math.fround(0.3));
    expect(await live.write(0.3)).toBe(true);
  });

  it('says no when the write cannot be sent, when the stream drops, and after a property error', async () => {
    const { live, subscription, stub } = writer();
    stub.live.emit(0.5);
    subscription.set.mockRejectedValueOnce(new Error('stream down'));
    expect(await live.write(0.6)).toBe(false);

    const dropped = live.write(0.7);
    stub.live.setStatus('offline');
    expect(await dropped).toBe(false);
    expect(await live.write(0.7)).toBe(false);

    stub.live.setStatus('online');
    stub.live.emit(0.5);
    expect(live.offered).toBe(true);
    subscription.options.onError?.(new Error('property error') as never);
    expect(live.offered).toBe(false);
  });

  it('says no while core reports the subscription stale, and writes through it again once a value comes', async () => {
    const { live, subscription, stub } = writer();
    stub.live.emit(0.5);
    const pending = live.write(0.6);
    stub.live.setStatus('stale');
    expect(await pending).toBe(false);
    expect(await live.write(0.6)).toBe(false);
    expect(subscription.set).toHaveBeenCalledTimes(1);

    stub.live.setStatus('online');
    stub.live.emit(0.5);
    const landed = live.write(0.6);
    stub.live.emit(Math.fround(0.6));
    expect(await landed).toBe(true);
  });

  it('stops writing through a server that let a write go unanswered', async () => {
    const { live, subscription, stub } = writer();
    stub.live.emit(0.5);
    const unanswered = live.write(0.6);
    await vi.advanceTimersByTimeAsync(500);
    expect(await unanswered).toBe(false);
    stub.live.emit(0.6);
    expect(await live.write(0.7)).toBe(false);
    expect(subscription.set).toHaveBeenCalledTimes(1);
  });

  it('closes its subscription and answers no after closing', async () => {
    const { live, subscription, stub } = writer();
    stub.live.emit(0.5);
    const pending = live.write(0.6);
    live.close();
    expect(await pending).toBe(false);
    expect(subscription.closed).toBe(true);
    expect(await live.write(0.6)).toBe(false);
  });
});
