import { ConnectionError, HttpError, NotOfferedError, type LayersSnapshot, type RenderStreamLayer } from '@stagelink/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ARM_MS } from '../../src/state/confirm/key-arm.js';
import { LayerTile } from '../../src/tiles/layer-tile.js';
import { wordsOf } from './face-reading.js';
import { host, keyRecorder, stubPool, stubServer } from './stubs.js';

const layer = (name: string, state: string, uid = name): RenderStreamLayer => ({ uid, name, workload: { state } });
const online = (...layers: RenderStreamLayer[]): LayersSnapshot => ({ status: 'online', layers, readAt: Date.now() });

function keyOn(settings: Record<string, string>) {
  const stub = stubServer();
  const key = keyRecorder();
  const logger = { warn: vi.fn(), debug: vi.fn(), info: vi.fn() };
  const tile = new LayerTile(key.surface, { pool: stubPool(stub.asMediaServer), logger, visible: true });
  tile.configure(settings, host);
  return { stub, key, logger, tile, rs: stub.renderstream };
}

describe('RenderStream layer tiles', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("show the layer's workload as core's watch reports it, and let go of the watch when they go", async () => {
    const { key, tile, rs } = keyOn({ layer: 'Unreal Stage' });
    expect(wordsOf(key.latest)).toEqual(['Unreal Stage', 'CONNECTING']);
    rs.tell(online(layer('Unreal Stage', 'running')));
    await vi.advanceTimersByTimeAsync(300);
    expect(wordsOf(key.latest)).toEqual(['Unreal Stage', 'RUNNING']);
    rs.tell(online(layer('Unreal Stage', 'starting')));
    await vi.advanceTimersByTimeAsync(300);
    expect(wordsOf(key.latest)).toEqual(['Unreal Stage', 'STARTING']);
    rs.tell(online(layer('Unreal Stage', 'Degraded')));
    await vi.advanceTimersByTimeAsync(300);
    expect(wordsOf(key.latest)).toEqual(['Unreal Stage', 'DEGRADED']);
    tile.dispose();
    expect(rs.open).toEqual([]);
  });

  it('show STALE for a snapshot that is not the director\'s now, NO LINK while it cannot be reached, never the last state', async () => {
    const { key, tile, rs } = keyOn({ layer: 'Unreal Stage' });
    rs.tell(online(layer('Unreal Stage', 'running')));
    await vi.advanceTimersByTimeAsync(300);
    const failed = new HttpError('GET renderstream/layers answered 500.', 500, undefined);
    rs.tell({ status: 'stale', layers: [layer('Unreal Stage', 'running')], readAt: Date.now(), problem: { message: failed.message, error: failed } });
    await vi.advanceTimersByTimeAsync(300);
    expect(wordsOf(key.latest)).toEqual(['Unreal Stage', 'STALE']);
    const down = new ConnectionError('http://10.0.0.5 refused the connection.');
    rs.tell({ status: 'offline', layers: [], problem: { message: down.message, error: down } });
    await vi.advanceTimersByTimeAsync(300);
    expect(wordsOf(key.latest)).toEqual(['Unreal Stage', 'NO LINK']);
    tile.dispose();
  });

  it('say N/A on a director without RenderStream, and a press alerts without sending', async () => {
    const { key, tile, rs, logger } = keyOn({ layer: 'Unreal Stage', operation: 'start' });
    const notOffered = new NotOfferedError('This director does not offer renderstream/layers.', 404, undefined);
    rs.tell({ status: 'offline', layers: [], problem: { message: notOffered.message, error: notOffered } });
    await vi.advanceTimersByTimeAsync(300);
    expect(wordsOf(key.latest)).toEqual(['Unreal Stage', 'N/A']);
    tile.press();
    await vi.advanceTimersByTimeAsync(10);
    expect(key.alerts).toBe(1);
    expect(rs.operate).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/does not offer RenderStream/));
    tile.dispose();
  });

  it('arm on the first press, fire on the second within the window, and arm again after it ran out', async () => {
    const { key, tile, rs } = keyOn({ layer: 'Unreal Stage' });
    rs.tell(online(layer('Unreal Stage', 'error', '91')));
    await vi.advanceTimersByTimeAsync(300);
    tile.press();
    await vi.advanceTimersByTimeAsync(300);
    expect(wordsOf(key.latest)).toEqual(['RESTART?', 'PRESS AGAIN']);
    await vi.advanceTimersByTimeAsync(ARM_MS);
    expect(wordsOf(key.latest)).toEqual(['Unreal Stage', 'ERROR']);
    // The window ran out: this press arms again, and sends nothing.
    tile.press();
    expect(rs.operate).not.toHaveBeenCalled();
    tile.press();
    await vi.advanceTimersByTimeAsync(10);
    expect(rs.operate).toHaveBeenCalledTimes(1);
    expect(rs.operate).toHaveBeenCalledWith('restart', { uid: '91' }, { confirm: true });
    expect(key.oks).toBe(1);
    tile.dispose();
  });

  it('stop only with the confirmation core asks for, and is disarmed by a change of its settings', async () => {
    const { key, tile, rs } = keyOn({ layer: 'Notch FX', operation: 'stop' });
    rs.tell(online(layer('Notch FX', 'running', '92')));
    await vi.advanceTimersByTimeAsync(300);
    tile.press();
    tile.configure({ layer: 'Notch FX', operation: 'stop' }, host);
    tile.press();
    expect(rs.operate).not.toHaveBeenCalled();
    tile.press();
    await vi.advanceTimersByTimeAsync(10);
    expect(rs.operate).toHaveBeenCalledWith('stop', { uid: '92' }, { confirm: true });
    expect(key.oks).toBe(1);
    tile.dispose();
  });

  it('alert on a failed command and log it once, with the reason', async () => {
    const { key, tile, rs, logger } = keyOn({ layer: 'Notch FX', operation: 'start' });
    rs.tell(online(layer('Notch FX', 'stopped')));
    await vi.advanceTimersByTimeAsync(300);
    rs.operate.mockRejectedValueOnce(new HttpError('POST renderstream/startlayers answered 500: the cluster has no free machine.', 500, undefined));
    tile.press();
    await vi.advanceTimersByTimeAsync(10);
    expect(key.alerts).toBe(1);
    const failures = logger.warn.mock.calls.filter(([line]) => String(line).includes('no free machine'));
    expect(failures).toHaveLength(1);
    tile.dispose();
  });

  it('say NO LAYER for a name the director does not list, naming the ones it does in the log, and alert on a press', async () => {
    const { key, tile, rs, logger } = keyOn({ layer: 'Unreal Stag' });
    rs.tell(online(layer('Unreal Stage', 'running'), layer('Notch FX', 'running')));
    await vi.advanceTimersByTimeAsync(300);
    expect(wordsOf(key.latest)).toEqual(['Unreal Stag', 'NO LAYER']);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('lists no RenderStream layer "Unreal Stag" (it lists "Unreal Stage", "Notch FX")'));
    // A restart key does not arm for a layer it cannot reach: the first press alerts.
    tile.press();
    await vi.advanceTimersByTimeAsync(300);
    expect(key.alerts).toBe(1);
    expect(wordsOf(key.latest)).toEqual(['Unreal Stag', 'NO LAYER']);
    expect(rs.operate).not.toHaveBeenCalled();
    tile.dispose();
  });

  it('show SET UP without a layer or with an operation it does not know, and alert on a press', async () => {
    const { key, tile, rs } = keyOn({});
    expect(wordsOf(key.latest)).toEqual(['LAYER', 'SET UP']);
    expect(rs.watches).toEqual([]);
    tile.configure({ layer: 'Notch FX', operation: 'explode' }, host);
    await vi.advanceTimersByTimeAsync(300);
    expect(wordsOf(key.latest)).toEqual(['LAYER', 'SET UP']);
    tile.press();
    expect(key.alerts).toBe(1);
    tile.dispose();
  });
});
