import { ConnectionError, InvalidInputError, LateAnswerError, StalledAnswerError, type HealthEntry } from '@stagelink/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HealthTile } from '../../src/tiles/health-tile.js';
import { OUTCOME_SHOWN_MS } from '../../src/tiles/key-outcomes.js';
import { TileRegistry } from '../../src/tiles/tile-registry.js';
import { HOLD_TO_FIRE_MS, TransportTile } from '../../src/tiles/transport-tile.js';
import { host, keyRecorder, quietLogger, settle, stubPool, stubServer, transportList } from './stubs.js';

/** What core says when the list's headers came and its body stopped (an MTU mismatch on the show network). */
const stalled = (path: string): StalledAnswerError =>
  new StalledAnswerError(`GET http://10.0.0.5${path} started to answer, but the rest of its answer did not arrive within 4000 ms: check the show network's MTU.`, 4000);

const entry = (hostname: string, ...severities: string[]): HealthEntry => ({
  machine: { uid: '1', name: hostname, hostname },
  runningAsMachine: { uid: '1', name: hostname, hostname },
  status: { averageFPS: 60, videoDroppedFrames: 0, videoMissedFrames: 0, states: severities.map((severity) => ({ name: 'x', detail: '', category: 'Output', severity })) },
});

describe('health tiles', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('share one gentle health poll per host and each show their own scope', async () => {
    const stub = stubServer();
    stub.server.status.health.mockResolvedValue([entry('media-1', 'ok', 'warning'), entry('media-2', 'ok')]);
    const pool = stubPool(stub.asMediaServer, { healthIntervalMs: 3000 });
    const session = keyRecorder();
    const one = keyRecorder();
    const tiles = [
      new HealthTile(session.surface, { pool, logger: quietLogger, visible: true }),
      new HealthTile(one.surface, { pool, logger: quietLogger, visible: true }),
    ];
    tiles[0]?.configure({}, host);
    tiles[1]?.configure({ machine: 'media-2' }, host);
    await vi.advanceTimersByTimeAsync(6100);
    expect(stub.server.status.health).toHaveBeenCalledTimes(3);
    expect(session.latest).toContain('>WARNING<');
    expect(one.latest).toContain('>OK<');
    for (const tile of tiles) tile.dispose();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(stub.server.status.health).toHaveBeenCalledTimes(3);
  });

  it('shows NO LINK when the server cannot be reached, and a press polls at once', async () => {
    const stub = stubServer();
    stub.server.status.health.mockRejectedValue(new ConnectionError('http://10.0.0.5 refused the connection.'));
    const key = keyRecorder();
    const tile = new HealthTile(key.surface, { pool: stubPool(stub.asMediaServer), logger: quietLogger, visible: true });
    tile.configure({}, host);
    await vi.advanceTimersByTimeAsync(300);
    expect(key.latest).toContain('>NO LINK<');
    stub.server.status.health.mockResolvedValue([entry('media-1', 'error')]);
    tile.press();
    await vi.advanceTimersByTimeAsync(300);
    expect(key.latest).toContain('>ERROR<');
    tile.dispose();
  });

  it('shows PROBLEM for an answer it cannot use, not NO LINK, and logs why once per reason', async () => {
    const stub = stubServer();
    stub.server.status.health.mockRejectedValue(new InvalidInputError('The machine name is empty.'));
    const key = keyRecorder();
    const logger = { warn: vi.fn() };
    const tile = new HealthTile(key.surface, { pool: stubPool(stub.asMediaServer), logger, visible: true });
    tile.configure({}, host);
    await vi.advanceTimersByTimeAsync(300);
    expect(key.latest).not.toContain('NO LINK');
    expect(key.latest).toContain('>PROBLEM<');
    tile.press();
    await vi.advanceTimersByTimeAsync(300);
    expect(logger.warn.mock.calls).toEqual([['Health key SESSION: The machine name is empty.']]);
    stub.server.status.health.mockRejectedValue(new TypeError('Cannot read properties of undefined'));
    tile.press();
    await vi.advanceTimersByTimeAsync(300);
    expect(key.latest).not.toContain('NO LINK');
    expect(key.latest).toContain('>PROBLEM<');
    expect(logger.warn).toHaveBeenCalledTimes(2);
    tile.dispose();
  });
});

describe('health tiles, when large answers do not arrive', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('show MTU?, not NO LINK or PROBLEM, and log core\'s sentence once', async () => {
    const stub = stubServer();
    stub.server.status.health.mockRejectedValue(stalled('/api/session/status/health'));
    const key = keyRecorder();
    const logger = { warn: vi.fn() };
    const tile = new HealthTile(key.surface, { pool: stubPool(stub.asMediaServer, { healthIntervalMs: 1000 }), logger, visible: true });
    tile.configure({}, host);
    await vi.advanceTimersByTimeAsync(3500);
    expect(key.latest).toContain('>MTU?<');
    expect(key.latest).not.toContain('NO LINK');
    expect(key.latest).not.toContain('PROBLEM');
    expect(logger.warn.mock.calls).toEqual([[expect.stringMatching(/^Health key SESSION: .*MTU/)]]);
    stub.server.status.health.mockResolvedValue([entry('media-1', 'ok')]);
    tile.press();
    await vi.advanceTimersByTimeAsync(300);
    expect(key.latest).toContain('>OK<');
    tile.dispose();
  });
});

describe('transport tiles', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setUp() {
    const stub = stubServer();
    stub.server.transport.transports.mockResolvedValue(transportList(1));
    const key = keyRecorder();
    const tile = new TransportTile(key.surface, { pool: stubPool(stub.asMediaServer), logger: quietLogger, visible: true });
    return { ...stub, key, tile };
  }

  it('shows OK when the cue fired and an alert when it did not', async () => {
    const { server, key, tile } = setUp();
    tile.configure({ command: 'play', transport: 'main' }, host);
    server.transport.send.mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('Transport "main" not found'));
    tile.press();
    await settle();
    expect([key.oks, key.alerts]).toEqual([1, 0]);
    tile.press();
    await settle();
    expect([key.oks, key.alerts]).toEqual([1, 1]);
    tile.dispose();
  });

  it('alerts without sending when the key is not set up', async () => {
    const { server, key, tile } = setUp();
    tile.configure({ command: 'gototrack', transport: 'main' }, host);
    tile.press();
    tile.configure({ command: 'play', transport: 'main' }, { kind: 'unset' });
    tile.press();
    await settle();
    expect(key.alerts).toBe(2);
    expect(server.transport.send).not.toHaveBeenCalled();
    tile.dispose();
  });

  it('shows SET UP with the command on the key and says in the log what is missing', async () => {
    const key = keyRecorder();
    const logger = { warn: vi.fn() };
    const tile = new TransportTile(key.surface, { pool: stubPool(stubServer().asMediaServer), logger, visible: true });
    tile.configure({ command: 'gototimecode', transport: 'main' }, host);
    await vi.advanceTimersByTimeAsync(300);
    expect(key.latest).toContain('>\u2192 TIMECODE<');
    expect(key.latest).toContain('>SET UP<');
    expect(logger.warn.mock.calls).toEqual([[expect.stringMatching(/^GO TO TIMECODE key: Set the timecode/)]]);
    tile.dispose();
  });

  it('sends the cues of two keys one after the other, in the order they were pressed', async () => {
    const { server, asMediaServer, key, tile } = setUp();
    const other = keyRecorder();
    const pool = stubPool(asMediaServer);
    const first = new TransportTile(key.surface, { pool, logger: quietLogger, visible: true });
    const second = new TransportTile(other.surface, { pool, logger: quietLogger, visible: true });
    tile.dispose();
    first.configure({ command: 'gototrack', transport: 'main', track: 'Intro' }, host);
    second.configure({ command: 'play', transport: 'main' }, host);
    let answer!: () => void;
    server.transport.send.mockReturnValueOnce(new Promise<void>((resolve) => (answer = resolve))).mockResolvedValue(undefined);
    first.press();
    second.press();
    await settle();
    expect(server.transport.send.mock.calls.map(([command]) => String(command))).toEqual(['gototrack']);
    answer();
    await settle();
    await settle();
    expect(server.transport.send.mock.calls.map(([command]) => String(command))).toEqual(['gototrack', 'play']);
    expect([key.oks, other.oks]).toEqual([1, 1]);
    first.dispose();
    second.dispose();
  });

  it('says it is sending while a cue takes longer than a moment, and nothing extra for a quick one', async () => {
    const { server, key, tile } = setUp();
    tile.configure({ command: 'play', transport: 'main' }, host);
    await vi.advanceTimersByTimeAsync(300);
    server.transport.send.mockResolvedValueOnce(undefined);
    tile.press();
    await vi.advanceTimersByTimeAsync(1000);
    expect(key.images.some((svg) => svg.includes('SENDING'))).toBe(false);
    let answer!: () => void;
    server.transport.send.mockReturnValueOnce(new Promise<void>((resolve) => (answer = resolve)));
    tile.press();
    await vi.advanceTimersByTimeAsync(400);
    expect(key.latest).toContain('SENDING');
    answer();
    await vi.advanceTimersByTimeAsync(300);
    expect(key.latest).not.toContain('SENDING');
    expect(key.oks).toBe(2);
    tile.dispose();
  });

  it('shows in its face, not in a manifest state, while its transport plays', async () => {
    const { server, key, tile } = setUp();
    server.transport.transports.mockResolvedValue(transportList(1, 'play'));
    tile.configure({ command: 'play', transport: 'main' }, host);
    await vi.advanceTimersByTimeAsync(300);
    expect(key.latest).toContain('PLAYING');
    server.transport.transports.mockResolvedValue(transportList(1, 'stop'));
    await vi.advanceTimersByTimeAsync(2100);
    expect(key.latest).not.toContain('PLAYING');
    tile.dispose();
  });

  it('says MTU? under its cue while the transport list stops part way, and still fires', async () => {
    const { server, key, tile } = setUp();
    server.transport.transports.mockRejectedValue(stalled('/api/session/transport/transports'));
    server.transport.send.mockResolvedValue(undefined);
    tile.configure({ command: 'play', transport: 'main' }, host);
    await vi.advanceTimersByTimeAsync(300);
    expect(key.latest).toContain('>MTU?<');
    expect(key.latest).toContain('>PLAY<');
    expect(key.latest).not.toContain('NO LINK');
    tile.press();
    await settle();
    expect([key.oks, key.alerts]).toEqual([1, 0]);
    tile.dispose();
  });

  it.each([
    ['landed', ['LANDED', 'LATE'], [1, 0]],
    ['unknown', ['OUTCOME', 'UNKNOWN'], [0, 1]],
  ] as const)('says a cue whose answer came late %s, for a while, and logs that it was not sent again', async (outcome, words, flashes) => {
    const { server, asMediaServer, key, tile } = setUp();
    const logger = { warn: vi.fn() };
    tile.dispose();
    const late = new TransportTile(key.surface, { pool: stubPool(asMediaServer), logger, visible: true });
    late.configure({ command: 'gototrack', transport: 'main', track: 'Intro' }, host);
    await vi.advanceTimersByTimeAsync(300);
    server.transport.send.mockRejectedValueOnce(new LateAnswerError('gototrack on http://10.0.0.5 answered late.', outcome, 4000));
    late.press();
    await vi.advanceTimersByTimeAsync(300);
    expect(key.latest).toContain(`>${words[0]}<`);
    expect(key.latest).toContain(`>${words[1]}<`);
    expect([key.oks, key.alerts]).toEqual(flashes);
    expect(server.transport.send).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`^GO TO TRACK Intro on http://10\\.0\\.0\\.5: ${outcome === 'landed' ? 'landed late' : 'outcome unknown'}.*not sent again`)));
    await vi.advanceTimersByTimeAsync(OUTCOME_SHOWN_MS);
    expect(key.latest).toContain('>Intro<');
    expect(key.latest).not.toContain(`>${words[1]}<`);
    late.dispose();
  });

  it('fires a hold-to-fire key only once held down long enough, and alerts when let go too soon', async () => {
    const { server, key, tile } = setUp();
    server.transport.send.mockResolvedValue(undefined);
    tile.configure({ command: 'stop', transport: 'main', hold: true }, host);
    await vi.advanceTimersByTimeAsync(300);
    tile.press();
    await vi.advanceTimersByTimeAsync(HOLD_TO_FIRE_MS - 100);
    tile.release?.();
    await vi.advanceTimersByTimeAsync(HOLD_TO_FIRE_MS);
    expect(server.transport.send).not.toHaveBeenCalled();
    expect([key.oks, key.alerts]).toEqual([0, 1]);

    tile.press();
    await vi.advanceTimersByTimeAsync(HOLD_TO_FIRE_MS + 10);
    tile.release?.();
    await vi.advanceTimersByTimeAsync(10);
    expect(server.transport.send).toHaveBeenCalledTimes(1);
    expect([key.oks, key.alerts]).toEqual([1, 1]);
    tile.dispose();
  });

  it('fires a hold-to-fire key at once inside a multi-action, which has no holding', async () => {
    const { server, asMediaServer, key, tile } = setUp();
    tile.dispose();
    server.transport.send.mockResolvedValue(undefined);
    const step = new TransportTile(key.surface, { pool: stubPool(asMediaServer), logger: quietLogger, visible: false });
    step.configure({ command: 'stop', transport: 'main', hold: true }, host);
    step.press();
    await vi.advanceTimersByTimeAsync(10);
    expect(server.transport.send).toHaveBeenCalledTimes(1);
    step.dispose();
  });
});

describe('the tile registry', () => {
  it('keeps configuring the other keys when one fails', () => {
    const registry = new TileRegistry(quietLogger);
    const configured: string[] = [];
    registry.appear('bad', {}, () => ({
      configure: () => {
        throw new Error('broken key');
      },
      dispose: () => undefined,
    }));
    registry.appear('good', {}, () => ({ configure: () => configured.push('good'), dispose: () => undefined }));
    registry.globalSettingsChanged({ host: '10.0.0.5' });
    expect(configured).toEqual(['good', 'good']);
  });

  it('gives a key its own host before the global one', () => {
    const registry = new TileRegistry(quietLogger);
    const hosts: unknown[] = [];
    registry.appear('k', { host: '10.0.0.9' }, () => ({ configure: (_s, h) => hosts.push(h), dispose: () => undefined }));
    registry.globalSettingsChanged({ host: '10.0.0.5' });
    registry.settingsChanged('k', {});
    expect(hosts).toEqual([
      { kind: 'host', host: '10.0.0.9' },
      { kind: 'host', host: '10.0.0.9' },
      { kind: 'host', host: '10.0.0.5' },
    ]);
    expect(registry.hostOf('k')).toBe('10.0.0.5');
  });

  it('disposes a key that leaves the screen', () => {
    const registry = new TileRegistry(quietLogger);
    const dispose = vi.fn();
    registry.appear('k', {}, () => ({ configure: () => undefined, dispose }));
    registry.disappear('k');
    registry.disappear('k');
    expect(dispose).toHaveBeenCalledTimes(1);
    expect(registry.size).toBe(0);
  });
});
