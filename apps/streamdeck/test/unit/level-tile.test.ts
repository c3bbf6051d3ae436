import { ConnectionError, livePresets, StalledAnswerError } from '@stagelink/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LevelDialSettings } from '../../src/settings.js';
import type { ServerPool } from '../../src/state/connection/server-pool.js';
import { LevelMemory } from '../../src/state/levels/level-memory.js';
import { LevelTile, SENDING_DELAY_MS } from '../../src/tiles/level-tile.js';
import { dialRecorder, host, settle, stubPool, stubServer, transportList } from './stubs.js';

describe('level dials', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A dial on screen over a stand-in server, with a logger to read; `memory` is where a push brings it back to. */
  function setUp(options: { memory?: LevelMemory; pool?: ServerPool; stub?: ReturnType<typeof stubServer> } = {}) {
    const stub = options.stub ?? stubServer();
    const dial = dialRecorder();
    const logger = { warn: vi.fn(), debug: vi.fn() };
    const pool = options.pool ?? stubPool(stub.asMediaServer);
    const tile = new LevelTile(dial.surface, { pool, logger, visible: true }, options.memory);
    return { ...stub, dial, logger, tile };
  }

  /** A dial set up with `settings` on a server that has `main` at `volume` (full brightness), once it has read that. */
  async function dialAt(volume: number, settings: LevelDialSettings, options: Parameters<typeof setUp>[0] = {}) {
    const set = setUp(options);
    set.server.transport.transports.mockResolvedValue(transportList(volume));
    set.tile.configure(settings, host);
    await vi.advanceTimersByTimeAsync(300);
    return set;
  }

  /** Pressed and let go without turning. */
  const push = (tile: LevelTile): void => {
    tile.dialDown();
    tile.dialUp();
  };

  const volumesSent = (server: ReturnType<typeof stubServer>['server']): number[] =>
    server.transport.setVolume.mock.calls.map(([body]) => (body as { volume: number }).volume);

  it('alerts instead of guessing when turned before the value is known', async () => {
    const { server, dial, tile } = setUp();
    server.transport.transports.mockReturnValue(new Promise(() => undefined));
    tile.configure({ property: 'volume', transport: 'main' }, host);
    tile.rotate(1);
    await settle();
    expect(dial.alerts).toBe(1);
    expect(server.transport.setVolume).not.toHaveBeenCalled();
    tile.dispose();
  });

  it('shows the value, then the turned value, on the strip', async () => {
    const { server, dial, tile } = await dialAt(0.5, { property: 'brightness', transport: 'main', step: '0.1' });
    tile.rotate(-2);
    await vi.advanceTimersByTimeAsync(300);
    expect(server.transport.setBrightness).toHaveBeenCalledWith({ transport: { name: 'main' }, brightness: 0.8 });
    expect(dial.feedback.map((f) => f.value)).toContain('100%');
    expect(dial.feedback.at(-1)?.value).toBe('80%');
    tile.dispose();
  });

  it('turns the level through the live stream where the server offers it, and over REST once the stream drops', async () => {
    const { server, live, dial, tile } = await dialAt(0.5, { property: 'volume', transport: 'main', step: '0.1' });
    const subscription = live.open[0];
    if (!subscription) throw new Error('the dial subscribes to the live value it writes');
    expect(subscription.request).toEqual(livePresets.transportVolume('main'));
    // The server sends the value, then each written value back as a 32-bit float, as directors do.
    subscription.set.mockImplementation((value) => (queueMicrotask(() => live.emit(Math.fround(Number(value)))), Promise.resolve()));
    live.setStatus('online');
    live.emit(0.5);

    tile.rotate(1);
    await vi.advanceTimersByTimeAsync(300);
    expect(subscription.set).toHaveBeenCalledWith(0.6);
    expect(server.transport.setVolume).not.toHaveBeenCalled();
    expect(dial.feedback.at(-1)?.value).toBe('60%');

    live.setStatus('offline');
    tile.rotate(1);
    await vi.advanceTimersByTimeAsync(300);
    expect(subscription.set).toHaveBeenCalledTimes(1);
    expect(server.transport.setVolume).toHaveBeenCalledWith({ transport: { name: 'main' }, volume: 0.7 });
    expect(dial.alerts).toBe(0);
    tile.dispose();
    expect(subscription.closed).toBe(true);
  });

  it('turns a multitransport, which has no live value, over REST', async () => {
    const { server, live, tile } = await dialAt(0.5, { property: 'brightness', transport: 'main', step: '0.1' });
    live.setStatus('online');
    live.open[0]?.options.onError?.(new Error('Unable to find object') as never);
    tile.rotate(-1);
    await vi.advanceTimersByTimeAsync(300);
    expect(live.open[0]?.set).not.toHaveBeenCalled();
    expect(server.transport.setBrightness).toHaveBeenCalledWith({ transport: { name: 'main' }, brightness: 0.9 });
    tile.dispose();
  });

  it.each([
    [{ property: 'colour', transport: 'main' }, 'Property must be volume or brightness'],
    [{ property: 'volume' }, 'Choose a transport.'],
    [{ property: 'volume', transport: 'main', step: -1 }, 'Step must be above 0'],
  ])('shows SET UP for %j and logs what to set, once', async (settings, message) => {
    const { dial, logger, tile } = setUp();
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
    const { server, dial, tile } = await dialAt(0.5, { property: 'volume', transport: 'main' }, { memory: new LevelMemory() });

    push(tile);
    await vi.advanceTimersByTimeAsync(300);
    expect(dial.feedback.at(-1)).toMatchObject({ value: '0%', state: { value: 'MUTED' } });
    push(tile);
    await vi.advanceTimersByTimeAsync(300);
    expect(dial.feedback.at(-1)).toMatchObject({ value: '50%', state: { value: 'VOLUME' } });

    tile.dialDown();
    tile.rotate(2, true);
    tile.dialUp();
    await vi.advanceTimersByTimeAsync(300);
    expect(volumesSent(server)).toEqual([0, 0.5, 0.502]);
    expect(dial.feedback.at(-1)?.value).toBe('50.2%');
    expect(dial.alerts).toBe(0);
    tile.dispose();
  });

  it('brings the level back after the dial left the screen and came back', async () => {
    const settings = { property: 'volume', transport: 'main' };
    const stub = stubServer();
    const shared = { memory: new LevelMemory(), stub, pool: stubPool(stub.asMediaServer) };
    const before = await dialAt(0.5, settings, shared);
    push(before.tile);
    await vi.advanceTimersByTimeAsync(300);
    before.tile.dispose();

    const { dial, tile } = await dialAt(0, settings, shared);
    push(tile);
    await vi.advanceTimersByTimeAsync(300);
    expect(volumesSent(stub.server)).toEqual([0, 0.5]);
    expect(dial.alerts).toBe(0);
    tile.dispose();
  });

  it('alerts at a push while the level is 0 and there is nothing to bring back', async () => {
    const { server, dial, logger, tile } = await dialAt(0, { property: 'volume', transport: 'main' }, { memory: new LevelMemory() });
    push(tile);
    await settle();
    expect(dial.alerts).toBe(1);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('no level to bring back'));
    expect(server.transport.setVolume).not.toHaveBeenCalled();
    tile.dispose();
  });

  it('shows SENDING while a write is slow to land, and the value alone once it has', async () => {
    const { server, dial, tile } = await dialAt(0.5, { property: 'volume', transport: 'main', step: 0.1 });
    let land: () => void = () => undefined;
    server.transport.setVolume.mockReturnValue(new Promise<void>((resolve) => (land = resolve)));
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
    const { server, dial, tile } = await dialAt(0.5, { property: 'volume', transport: 'main' });
    const polls = server.transport.transports.mock.calls.length;
    server.transport.transports.mockResolvedValue(transportList(0.7));
    tile.touch();
    await vi.advanceTimersByTimeAsync(300);
    expect(server.transport.transports).toHaveBeenCalledTimes(polls + 1);
    expect(dial.feedback.at(-1)?.value).toBe('70%');
    tile.dispose();
  });

  it('says NO LINK and alerts at once on a push while the server cannot be reached', async () => {
    const { server, dial, tile } = setUp();
    server.transport.transports.mockRejectedValue(new ConnectionError('http://10.0.0.5 refused the connection.'));
    tile.configure({ property: 'volume', transport: 'main' }, host);
    await vi.advanceTimersByTimeAsync(300);
    expect(dial.feedback.at(-1)).toMatchObject({ value: '--', state: { value: 'NO LINK' } });
    push(tile);
    expect(dial.alerts).toBe(1);
    tile.dispose();
  });

  it('says MTU?, not NO LINK, while the transport list stops part way, and alerts on a turn rather than guess', async () => {
    const { server, dial, tile } = setUp();
    server.transport.transports.mockRejectedValue(
      new StalledAnswerError('GET http://10.0.0.5/api/session/transport/transports started to answer, but the rest did not arrive: check the MTU.', 4000),
    );
    tile.configure({ property: 'volume', transport: 'main' }, host);
    await vi.advanceTimersByTimeAsync(300);
    expect(dial.feedback.at(-1)).toMatchObject({ value: '--', state: { value: 'MTU?' } });
    tile.rotate(1);
    expect(dial.alerts).toBe(1);
    expect(server.transport.setVolume).not.toHaveBeenCalled();
    tile.dispose();
  });

  it.each([
    { ticks: 1_000_000, volume: 1 },
    { ticks: -1_000_000, volume: 0 },
    { ticks: Number.MAX_SAFE_INTEGER, volume: 1 },
  ])('stops at the end of the range when turned by $ticks ticks', async ({ ticks, volume }) => {
    const { server, dial, tile } = await dialAt(0.5, { property: 'volume', transport: 'main', step: 0.05 });
    tile.rotate(ticks);
    await vi.advanceTimersByTimeAsync(300);
    expect(volumesSent(server)).toEqual([volume]);
    expect(dial.feedback.at(-1)?.value).toBe(`${volume * 100}%`);
    expect(dial.alerts).toBe(0);
    tile.dispose();
  });

  it.each([2.5, -0.5, Number.NaN, Number.POSITIVE_INFINITY, undefined, null, 'many', '3', [3], { ticks: 3 }])(
    'refuses a turn of %j ticks with an alert and changes nothing',
    async (ticks) => {
      const { server, dial, logger, tile } = await dialAt(0.5, { property: 'volume', transport: 'main' });
      tile.rotate(ticks);
      await vi.advanceTimersByTimeAsync(300);
      expect(dial.alerts).toBe(1);
      expect(server.transport.setVolume).not.toHaveBeenCalled();
      expect(dial.feedback.at(-1)?.value).toBe('50%');
      expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('not a whole number of ticks'));
      tile.dispose();
    },
  );

  it('logs a tick count sent as a long text without the text', async () => {
    const { dial, logger, tile } = await dialAt(0.5, { property: 'volume', transport: 'main' });
    tile.rotate('9'.repeat(100_000));
    expect(dial.alerts).toBe(1);
    const logged = logger.warn.mock.calls.flat().join('');
    expect(logged.length).toBeLessThan(200);
    tile.dispose();
  });

  it('alerts on a turn while it is not set up', () => {
    const { dial, tile } = setUp();
    tile.configure({ property: 'volume' }, host);
    tile.rotate(1);
    expect(dial.alerts).toBe(1);
    tile.dispose();
  });

  it('says NOT FOUND for a transport the server does not have, and logs it', async () => {
    const { dial, logger, tile } = await dialAt(0.5, { property: 'volume', transport: 'lobby' });
    expect(dial.feedback.at(-1)).toMatchObject({ transport: 'lobby', value: '--', state: { value: 'NOT FOUND' } });
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('No transport lobby'));
    tile.dispose();
  });
});
