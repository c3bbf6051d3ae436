import { ConnectionError, livePresets } from '@stagelink/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LevelMemory } from '../../src/state/levels/level-memory.js';
import { LevelTile, SENDING_DELAY_MS } from '../../src/tiles/level-tile.js';
import { dialRecorder, quietLogger, settle, stubPool, stubServer } from './stubs.js';

const host = { kind: 'host', host: 'http://10.0.0.5' } as const;

const transports = (volume: number, playmode = 'stop') => ({
  transports: [{ uid: '1', name: 'main', playmode, volume, brightness: 1 }],
  multitransports: [],
});

describe('level dials', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('alerts instead of guessing when turned before the value is known', async () => {
    const stub = stubServer();
    stub.server.transport.transports.mockReturnValue(new Promise(() => undefined));
    const dial = dialRecorder();
    const tile = new LevelTile(dial.surface, { pool: stubPool(stub.asMediaServer), logger: quietLogger, visible: true });
    tile.configure({ property: 'volume', transport: 'main' }, host);
    tile.rotate(1);
    await settle();
    expect(dial.alerts).toBe(1);
    expect(stub.server.transport.setVolume).not.toHaveBeenCalled();
    tile.dispose();
  });

  it('shows the value, then the turned value, on the strip', async () => {
    const stub = stubServer();
    stub.server.transport.transports.mockResolvedValue(transports(0.5));
    stub.server.transport.setBrightness.mockResolvedValue(undefined);
    const dial = dialRecorder();
    const tile = new LevelTile(dial.surface, { pool: stubPool(stub.asMediaServer), logger: quietLogger, visible: true });
    tile.configure({ property: 'brightness', transport: 'main', step: '0.1' }, host);
    await vi.advanceTimersByTimeAsync(300);
    tile.rotate(-2);
    await vi.advanceTimersByTimeAsync(300);
    expect(stub.server.transport.setBrightness).toHaveBeenCalledWith({ transport: { name: 'main' }, brightness: 0.8 });
    expect(dial.feedback.map((f) => f.value)).toContain('100%');
    expect(dial.feedback.at(-1)?.value).toBe('80%');
    tile.dispose();
  });

  it('turns the level through the live stream where the server offers it, and over REST once the stream drops', async () => {
    const stub = stubServer();
    stub.server.transport.transports.mockResolvedValue(transports(0.5));
    stub.server.transport.setVolume.mockResolvedValue(undefined);
    const dial = dialRecorder();
    const tile = new LevelTile(dial.surface, { pool: stubPool(stub.asMediaServer), logger: quietLogger, visible: true });
    tile.configure({ property: 'volume', transport: 'main', step: '0.1' }, host);
    await vi.advanceTimersByTimeAsync(300);
    const live = stub.live.open[0];
    if (!live) throw new Error('the dial subscribes to the live value it writes');
    expect(live.request).toEqual(livePresets.transportVolume('main'));
    // The server sends the value, then each written value back as a 32-bit float, as directors do.
    live.set.mockImplementation((value) => (queueMicrotask(() => stub.live.emit(Math.fround(Number(value)))), Promise.resolve()));
    stub.live.setStatus('online');
    stub.live.emit(0.5);

    tile.rotate(1);
    await vi.advanceTimersByTimeAsync(300);
    expect(live.set).toHaveBeenCalledWith(0.6);
    expect(stub.server.transport.setVolume).not.toHaveBeenCalled();
    expect(dial.feedback.at(-1)?.value).toBe('60%');

    stub.live.setStatus('offline');
    tile.rotate(1);
    await vi.advanceTimersByTimeAsync(300);
    expect(live.set).toHaveBeenCalledTimes(1);
    expect(stub.server.transport.setVolume).toHaveBeenCalledWith({ transport: { name: 'main' }, volume: 0.7 });
    expect(dial.alerts).toBe(0);
    tile.dispose();
    expect(live.closed).toBe(true);
  });

  it('turns a multitransport, which has no live value, over REST', async () => {
    const stub = stubServer();
    stub.server.transport.transports.mockResolvedValue(transports(0.5));
    stub.server.transport.setBrightness.mockResolvedValue(undefined);
    const dial = dialRecorder();
    const tile = new LevelTile(dial.surface, { pool: stubPool(stub.asMediaServer), logger: quietLogger, visible: true });
    tile.configure({ property: 'brightness', transport: 'main', step: '0.1' }, host);
    await vi.advanceTimersByTimeAsync(300);
    stub.live.setStatus('online');
    stub.live.open[0]?.options.onError?.(new Error('Unable to find object') as never);
    tile.rotate(-1);
    await vi.advanceTimersByTimeAsync(300);
    expect(stub.live.open[0]?.set).not.toHaveBeenCalled();
    expect(stub.server.transport.setBrightness).toHaveBeenCalledWith({ transport: { name: 'main' }, brightness: 0.9 });
    tile.dispose();
  });

  it.each([
    [{ property: 'colour', transport: 'main' }, 'Property must be volume or brightness'],
    [{ property: 'volume' }, 'Choose a transport.'],
    [{ property: 'volume', transport: 'main', step: -1 }, 'Step must be above 0'],
  ])('shows SET UP for %j and logs what to set, once', async (settings, message) => {
    const stub = stubServer();
    const dial = dialRecorder();
    const logger = { warn: vi.fn(), debug: vi.fn() };
    const tile = new LevelTile(dial.surface, { pool: stubPool(stub.asMediaServer), logger, visible: true });
    tile.configure(settings, host);
    tile.configure(settings, host);
    await vi.advanceTimersByTimeAsync(300);
    expect(dial.feedback.at(-1)?.state).toMatchObject({ value: 'SET UP' });
    expect(JSON.stringify(dial.feedback)).not.toContain(message);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining(message));
    tile.dispose();
  });

  it('mutes on a push and brings the level back on the next, sending nothing for a push turned while held', async () => {
    const stub = stubServer();
    stub.server.transport.transports.mockResolvedValue(transports(0.5));
    stub.server.transport.setVolume.mockResolvedValue(undefined);
    const dial = dialRecorder();
    const tile = new LevelTile(dial.surface, { pool: stubPool(stub.asMediaServer), logger: quietLogger, visible: true }, new LevelMemory());
    tile.configure({ property: 'volume', transport: 'main' }, host);
    await vi.advanceTimersByTimeAsync(300);

    tile.dialDown();
    tile.dialUp();
    await vi.advanceTimersByTimeAsync(300);
    expect(dial.feedback.at(-1)).toMatchObject({ value: '0%', state: { value: 'MUTED' } });
    tile.dialDown();
    tile.dialUp();
    await vi.advanceTimersByTimeAsync(300);
    expect(dial.feedback.at(-1)).toMatchObject({ value: '50%', state: { value: 'VOLUME' } });

    tile.dialDown();
    tile.rotate(2, true);
    tile.dialUp();
    await vi.advanceTimersByTimeAsync(300);
    expect(stub.server.transport.setVolume.mock.calls.map(([body]) => (body as { volume: number }).volume)).toEqual([0, 0.5, 0.502]);
    expect(dial.feedback.at(-1)?.value).toBe('50.2%');
    expect(dial.alerts).toBe(0);
    tile.dispose();
  });

  it('brings the level back after the dial left the screen and came back', async () => {
    const stub = stubServer();
    stub.server.transport.transports.mockResolvedValue(transports(0.5));
    stub.server.transport.setVolume.mockResolvedValue(undefined);
    const memory = new LevelMemory();
    const pool = stubPool(stub.asMediaServer);
    const before = new LevelTile(dialRecorder().surface, { pool, logger: quietLogger, visible: true }, memory);
    before.configure({ property: 'volume', transport: 'main' }, host);
    await vi.advanceTimersByTimeAsync(300);
    before.dialDown();
    before.dialUp();
    await vi.advanceTimersByTimeAsync(300);
    before.dispose();

    stub.server.transport.transports.mockResolvedValue(transports(0));
    const dial = dialRecorder();
    const after = new LevelTile(dial.surface, { pool, logger: quietLogger, visible: true }, memory);
    after.configure({ property: 'volume', transport: 'main' }, host);
    await vi.advanceTimersByTimeAsync(300);
    after.dialDown();
    after.dialUp();
    await vi.advanceTimersByTimeAsync(300);
    expect(stub.server.transport.setVolume.mock.calls.map(([body]) => (body as { volume: number }).volume)).toEqual([0, 0.5]);
    expect(dial.alerts).toBe(0);
    after.dispose();
  });

  it('alerts at a push while the level is 0 and there is nothing to bring back', async () => {
    const stub = stubServer();
    stub.server.transport.transports.mockResolvedValue(transports(0));
    const dial = dialRecorder();
    const logger = { warn: vi.fn(), debug: vi.fn() };
    const tile = new LevelTile(dial.surface, { pool: stubPool(stub.asMediaServer), logger, visible: true }, new LevelMemory());
    tile.configure({ property: 'volume', transport: 'main' }, host);
    await vi.advanceTimersByTimeAsync(300);
    tile.dialDown();
    tile.dialUp();
    await settle();
    expect(dial.alerts).toBe(1);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('no level to bring back'));
    expect(stub.server.transport.setVolume).not.toHaveBeenCalled();
    tile.dispose();
  });

  it('shows SENDING while a write is slow to land, and the value alone once it has', async () => {
    const stub = stubServer();
    stub.server.transport.transports.mockResolvedValue(transports(0.5));
    let land: () => void = () => undefined;
    stub.server.transport.setVolume.mockReturnValue(new Promise<void>((resolve) => (land = resolve)));
    const dial = dialRecorder();
    const tile = new LevelTile(dial.surface, { pool: stubPool(stub.asMediaServer), logger: quietLogger, visible: true });
    tile.configure({ property: 'volume', transport: 'main', step: 0.1 }, host);
    await vi.advanceTimersByTimeAsync(300);
    tile.rotate(1);
    await vi.advanceTimersByTimeAsync(SENDING_DELAY_MS - 50);
    expect(dial.feedback.at(-1)).toMatchObject({ value: '60%', state: { value: 'VOLUME' } });
    await vi.advanceTimersByTimeAsync(300);
    expect(dial.feedback.at(-1)).toMatchObject({ value: '60%', state: { value: 'SENDING' } });
    land();
    await vi.advanceTimersByTimeAsync(300);
    expect(dial.feedback.at(-1)).toMatchObject({ value: '60%', state: { value: 'VOLUME' } });
    tile.rotate(1);
    tile.dispose();
    // Past the pool's grace for closing the client: nothing of the dial is left running.
    await vi.advanceTimersByTimeAsync(100);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reads the level from the server again when the strip is touched', async () => {
    const stub = stubServer();
    stub.server.transport.transports.mockResolvedValue(transports(0.5));
    const dial = dialRecorder();
    const tile = new LevelTile(dial.surface, { pool: stubPool(stub.asMediaServer), logger: quietLogger, visible: true });
    tile.configure({ property: 'volume', transport: 'main' }, host);
    await vi.advanceTimersByTimeAsync(300);
    const polls = stub.server.transport.transports.mock.calls.length;
    stub.server.transport.transports.mockResolvedValue(transports(0.7));
    tile.touch();
    await vi.advanceTimersByTimeAsync(300);
    expect(stub.server.transport.transports).toHaveBeenCalledTimes(polls + 1);
    expect(dial.feedback.at(-1)?.value).toBe('70%');
    tile.dispose();
  });

  it('says NO LINK and alerts at once on a push while the server cannot be reached', async () => {
    const stub = stubServer();
    stub.server.transport.transports.mockRejectedValue(new ConnectionError('http://10.0.0.5 refused the connection.'));
    const dial = dialRecorder();
    const tile = new LevelTile(dial.surface, { pool: stubPool(stub.asMediaServer), logger: quietLogger, visible: true });
    tile.configure({ property: 'volume', transport: 'main' }, host);
    await vi.advanceTimersByTimeAsync(300);
    expect(dial.feedback.at(-1)).toMatchObject({ value: '--', state: { value: 'NO LINK' } });
    tile.dialDown();
    tile.dialUp();
    expect(dial.alerts).toBe(1);
    tile.dispose();
  });

  it('says NOT FOUND for a transport the server does not have, and logs it', async () => {
    const stub = stubServer();
    stub.server.transport.transports.mockResolvedValue(transports(0.5));
    const dial = dialRecorder();
    const logger = { warn: vi.fn(), debug: vi.fn() };
    const tile = new LevelTile(dial.surface, { pool: stubPool(stub.asMediaServer), logger, visible: true });
    tile.configure({ property: 'volume', transport: 'lobby' }, host);
    await vi.advanceTimersByTimeAsync(300);
    expect(dial.feedback.at(-1)).toMatchObject({ transport: 'lobby', value: '--', state: { value: 'NOT FOUND' } });
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('No transport lobby'));
    tile.dispose();
  });
});
