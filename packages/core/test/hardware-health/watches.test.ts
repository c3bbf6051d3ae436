import { describe, expect, it, vi } from 'vitest';
import { ClosedError, ConnectionError, HttpError, InvalidInputError, TimeoutError } from '../../src/errors.js';
import { silentLogger, type Logger } from '../../src/http/logger.js';
import { HardwareWatches } from '../../src/hardware-health/hardware-watches.js';
import type { HardwareSnapshot } from '../../src/hardware-health/hardware-snapshot.js';
import type { HardwareSources } from '../../src/hardware-health/poll-hardware.js';
import { MediaServer } from '../../src/media-server/media-server.js';

/** Polls of tens of milliseconds: the watches under test allow them, a client's never do. */
const MIN_MS = 20;

function fakeSmc() {
  let stats: () => unknown = () => ({ 'System Power': 'on', 'Fan 1': '5400 RPM', 'CPU Temp': '41 degrees C', 'Main Power Fault': 'false' });
  const reads = { stats: 0, powerStatus: 0, outputs: 0 };
  const sources: HardwareSources = {
    stats: () => {
      reads.stats += 1;
      return Promise.resolve().then(stats);
    },
    powerStatus: () => {
      reads.powerStatus += 1;
      return Promise.reject(new HttpError('login required', 401, {}));
    },
    outputs: () => {
      reads.outputs += 1;
      return Promise.resolve([{ slot: 1, type: 'DP-4', status: 'ok' }]);
    },
  };
  return {
    sources,
    reads,
    answer(next: () => unknown) {
      stats = next;
    },
  };
}

function collect() {
  const seen: HardwareSnapshot[] = [];
  return { seen, onChange: (snapshot: HardwareSnapshot) => seen.push(snapshot), last: () => seen.at(-1) };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('watching a machine hardware', () => {
  it('reads stats, power status and cards once a period for every watcher, and tells each its snapshot', async () => {
    const watches = new HardwareWatches(silentLogger, MIN_MS);
    const smc = fakeSmc();
    const watchers = Array.from({ length: 20 }, () => collect());
    const handles = watchers.map(({ onChange }) => watches.watch('smc-1', 'ACTOR01', smc.sources, onChange, { everyMs: 100 }));
    await vi.waitFor(() => expect(watchers.every(({ seen }) => seen.length === 1)).toBe(true));
    expect(watchers[0]?.last()).toMatchObject({
      machine: 'ACTOR01',
      status: 'online',
      power: 'on',
      severity: 'ok',
      fans: [{ sensor: 'Fan 1', rpm: 5400 }],
      temperatures: [{ sensor: 'CPU Temp', celsius: 41 }],
      outputs: [{ slot: 1, type: 'DP-4', status: 'ok' }],
    });
    expect(handles[5]?.current).toEqual(watchers[5]?.last());
    const started = Date.now();
    await settle(450);
    const polls = Math.ceil((Date.now() - started) / 100) + 1;
    expect(smc.reads.stats).toBeLessThanOrEqual(polls);
    expect(smc.reads.stats).toBeGreaterThanOrEqual(3);
    expect(smc.reads.powerStatus).toBe(smc.reads.stats);
    expect(smc.reads.outputs).toBe(smc.reads.stats);
    expect(watches.pollCount).toBe(1);
    watches.close();
  });

  it('tells a change once, and a fault in words within a poll, and back', async () => {
    const watches = new HardwareWatches(silentLogger, MIN_MS);
    const smc = fakeSmc();
    const watcher = collect();
    watches.watch('smc-1', 'ACTOR01', smc.sources, watcher.onChange, { everyMs: MIN_MS });
    await vi.waitFor(() => expect(watcher.last()?.severity).toBe('ok'));
    await settle(100);
    expect(watcher.seen).toHaveLength(1);
    smc.answer(() => ({ 'Fan 1': '0 RPM', 'CPU Temp': '41 degrees C' }));
    await vi.waitFor(() => expect(watcher.last()).toMatchObject({ severity: 'error', reasons: ['Fan 1 has stopped (0 RPM)'] }));
    smc.answer(() => ({ 'Fan 1': '5400 RPM', 'CPU Temp': '41 degrees C' }));
    await vi.waitFor(() => expect(watcher.last()).toMatchObject({ severity: 'ok', reasons: [] }));
    watches.close();
  });

  it('shows an SMC that stops answering as offline, without its last reading, then online again', async () => {
    const watches = new HardwareWatches(silentLogger, MIN_MS);
    const smc = fakeSmc();
    const watcher = collect();
    watches.watch('smc-1', 'ACTOR01', smc.sources, watcher.onChange, { everyMs: MIN_MS });
    await vi.waitFor(() => expect(watcher.last()?.status).toBe('online'));
    smc.answer(() => {
      throw new TimeoutError('GET /api/chassis/stats timed out after 20 ms', 20);
    });
    await vi.waitFor(() => expect(watcher.last()?.status).toBe('offline'));
    expect(watcher.last()).toMatchObject({ power: undefined, fans: [], temperatures: [], outputs: [], severity: 'error' });
    expect(watcher.last()?.readAt).toBeUndefined();
    expect(watcher.last()?.reasons[0]).toMatch(/did not answer within/);
    smc.answer(() => ({ 'Fan 1': '5400 RPM' }));
    await vi.waitFor(() => expect(watcher.last()).toMatchObject({ status: 'online', severity: 'ok' }));
    watches.close();
  });

  it('keeps the last readings of an SMC that answers with an error as stale, dated', async () => {
    const watches = new HardwareWatches(silentLogger, MIN_MS);
    const smc = fakeSmc();
    const watcher = collect();
    watches.watch('smc-1', 'ACTOR01', smc.sources, watcher.onChange, { everyMs: MIN_MS });
    await vi.waitFor(() => expect(watcher.last()?.status).toBe('online'));
    const failedFrom = Date.now();
    smc.answer(() => {
      throw new HttpError('GET /api/chassis/stats answered 500', 500, {});
    });
    await vi.waitFor(() => expect(watcher.last()?.status).toBe('stale'));
    expect(watcher.last()).toMatchObject({ severity: 'warning', fans: [{ sensor: 'Fan 1', rpm: 5400 }] });
    expect(watcher.last()?.readAt).toBeLessThanOrEqual(failedFrom);
    expect(watcher.last()?.reasons.at(-1)).toMatch(/answered with an error, readings are from/);
    smc.answer(() => {
      throw new ConnectionError('connection refused');
    });
    await vi.waitFor(() => expect(watcher.last()?.status).toBe('offline'));
    watches.close();
  });

  it('judges each watcher by its own thresholds from the one poll', async () => {
    const watches = new HardwareWatches(silentLogger, MIN_MS);
    const smc = fakeSmc();
    const strict = collect();
    const usual = collect();
    watches.watch('smc-1', 'ACTOR01', smc.sources, strict.onChange, { everyMs: 100, thresholds: { warningCelsius: 30, errorCelsius: 40 } });
    watches.watch('smc-1', 'actor01', smc.sources, usual.onChange, { everyMs: 100 });
    await vi.waitFor(() => expect(usual.last()?.severity).toBe('ok'));
    await vi.waitFor(() => expect(strict.last()).toMatchObject({ machine: 'ACTOR01', severity: 'error', reasons: ['CPU Temp is at 41 °C, over its 40 °C error line'] }));
    expect(usual.last()?.machine).toBe('actor01');
    watches.close();
  });

  it('stops reading with the last watcher closed, and a watcher that throws stops no other', async () => {
    const warnings: string[] = [];
    const logger: Logger = { warn: (message) => warnings.push(message) };
    const watches = new HardwareWatches(logger, MIN_MS);
    const smc = fakeSmc();
    const calm = collect();
    const throwing = watches.watch('smc-1', 'ACTOR01', smc.sources, () => {
      throw new Error('a tile broke');
    }, { everyMs: MIN_MS });
    const watch = watches.watch('smc-1', 'ACTOR01', smc.sources, calm.onChange, { everyMs: MIN_MS });
    await vi.waitFor(() => expect(calm.seen).toHaveLength(1));
    expect(warnings[0]).toMatch(/hardware watcher of ACTOR01 threw: a tile broke/);
    throwing.close();
    watch.close();
    watch.close();
    expect(watches.pollCount).toBe(0);
    const reads = smc.reads.stats;
    await settle(MIN_MS * 5);
    expect(smc.reads.stats).toBeLessThanOrEqual(reads + 1);
    expect(watch.current).toBeUndefined();
  });

  it('polls at the shortest period any watcher asks for, and slows down again when that watcher closes', async () => {
    const watches = new HardwareWatches(silentLogger, MIN_MS);
    const smc = fakeSmc();
    const slow = collect();
    watches.watch('smc-1', 'ACTOR01', smc.sources, slow.onChange, { everyMs: 2000 });
    await vi.waitFor(() => expect(slow.seen).toHaveLength(1));
    const fast = watches.watch('smc-1', 'ACTOR01', smc.sources, () => undefined, { everyMs: 50 });
    const before = smc.reads.stats;
    await vi.waitFor(() => expect(smc.reads.stats).toBeGreaterThanOrEqual(before + 4));
    fast.close();
    // The poll in flight or scheduled at the fast period may still run once; then none for the slow watcher's 2 s.
    await settle(200);
    const after = smc.reads.stats;
    await settle(400);
    expect(smc.reads.stats).toBe(after);
    expect(watches.pollCount).toBe(1);
    watches.close();
  });

  it('refuses a period under the floor and a callback that is not a function', () => {
    const watches = new HardwareWatches(silentLogger);
    const smc = fakeSmc();
    expect(() => watches.watch('k', 'ACTOR01', smc.sources, () => undefined, { everyMs: 500 })).toThrow(/at least 1000/);
    expect(() => watches.watch('k', 'ACTOR01', smc.sources, 'tile' as unknown as () => void)).toThrow(InvalidInputError);
    expect(smc.reads.stats).toBe(0);
  });

  it('is a ClosedError once closed, and leaves no timer behind', async () => {
    const watches = new HardwareWatches(silentLogger, MIN_MS);
    const smc = fakeSmc();
    const watcher = collect();
    watches.watch('smc-1', 'ACTOR01', smc.sources, watcher.onChange, { everyMs: MIN_MS });
    await vi.waitFor(() => expect(watcher.seen).toHaveLength(1));
    watches.close();
    expect(() => watches.watch('smc-1', 'ACTOR01', smc.sources, () => undefined)).toThrow(ClosedError);
    const reads = smc.reads.stats;
    await settle(MIN_MS * 5);
    expect(smc.reads.stats).toBeLessThanOrEqual(reads + 1);
  });

  it('through ms.hardwareOf(machine).watch after ms.close()', async () => {
    const ms = new MediaServer({ host: 'http://127.0.0.1:9', smcs: { ACTOR01: { host: '127.0.0.1:9' } } });
    await ms.close();
    expect(() => ms.hardwareOf('ACTOR01').watch(() => undefined)).toThrow(ClosedError);
  });

  it('through ms.hardwareOf(machine).watch: an SMC nobody answers is offline, and close releases the poll', async () => {
    const ms = new MediaServer({ host: 'http://127.0.0.1:9', smcs: { ACTOR01: { host: '127.0.0.1:9' } }, retries: 0 });
    const watcher = collect();
    const watch = ms.hardwareOf('ACTOR01').watch(watcher.onChange, { everyMs: 1000 });
    await vi.waitFor(() => expect(watcher.last()).toMatchObject({ machine: 'ACTOR01', status: 'offline', severity: 'error' }), { timeout: 5000 });
    watch.close();
    await ms.close();
  });
});
