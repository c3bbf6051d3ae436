import { livePresets } from '@stagelink/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FpsKeySettings } from '../../src/settings.js';
import { FpsTile } from '../../src/tiles/fps-tile.js';
import { palette } from '../../src/render/palette.js';
import { readFace } from './face-reading.js';
import { host, keyRecorder, quietLogger, stubPool, stubServer } from './stubs.js';
const bigNumber = (svg: string): string | undefined => />(\d+(?:\.\d)?) FPS</.exec(svg)?.[1];
const background = (svg: string | undefined): string | undefined => (svg === undefined ? undefined : readFace(svg).background);

describe('FPS tile', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setUp(visible = true, logger = quietLogger) {
    const stub = stubServer();
    const key = keyRecorder();
    const tile = new FpsTile(key.surface, { pool: stubPool(stub.asMediaServer), logger, visible });
    return { ...stub, key, tile };
  }

  /** A tile on screen, set up with `settings`, whose live stream is up. */
  function streaming(settings: FpsKeySettings) {
    const set = setUp();
    set.tile.configure(settings, host);
    set.live.setStatus('online');
    return set;
  }

  it('subscribes to the local FPS, or to the named machine', () => {
    const { live, tile } = setUp();
    tile.configure({}, host);
    expect(live.open.map((s) => s.request)).toEqual([livePresets.localFps()]);
    tile.configure({ machine: 'actor-1' }, host);
    expect(live.open.map((s) => s.request)).toMatchObject([{ ...livePresets.remoteFps('actor-1'), remoteMonitor: { hostname: 'actor-1' } }]);
    tile.dispose();
  });

  it("reads the director's own FPS from its local monitor, whichever case its name is given in", () => {
    const { live, server, key, tile } = setUp();
    Object.assign(server, { director: { hostname: 'DIRECTOR01', url: 'http://10.0.0.5', solo: false } });
    tile.configure({ machine: 'director01' }, host);
    expect(live.open.map((s) => s.request)).toEqual([livePresets.localFps()]);
    live.setStatus('online');
    live.emit(59.94);
    vi.advanceTimersByTime(300);
    expect(bigNumber(key.latest)).toBe('59.9');
    expect(key.latest).toContain('director01');
    tile.dispose();
  });

  it('turns to the local monitor when the director, found only after subscribing, refuses its own name as remote', () => {
    const { live, server, key, tile } = setUp();
    tile.configure({ machine: 'DIRECTOR01' }, host);
    const remote = live.open[0];
    expect(remote?.request).toMatchObject({ remoteMonitor: { hostname: 'DIRECTOR01' } });
    Object.assign(server, { director: { hostname: 'DIRECTOR01', url: 'http://10.0.0.5', solo: false } });
    remote?.options.onError?.(new Error('DIRECTOR01 is not a machine this director monitors') as never);
    expect(remote?.closed).toBe(true);
    expect(live.open.map((s) => s.request)).toEqual([livePresets.localFps()]);
    live.setStatus('online');
    live.emit(60);
    vi.advanceTimersByTime(300);
    expect(bigNumber(key.latest)).toBe('60.0');
    tile.dispose();
    expect(live.open).toEqual([]);
  });

  it('names a machine the director does not monitor on the key', () => {
    const { live, server, key, tile } = setUp();
    Object.assign(server, { director: { hostname: 'DIRECTOR01', url: 'http://10.0.0.5', solo: false } });
    tile.configure({ machine: 'ACTOR09' }, host);
    live.open[0]?.options.onError?.(new Error('ACTOR09 is not a machine this director monitors') as never);
    vi.advanceTimersByTime(300);
    expect(key.latest).toContain('PROBLEM');
    expect(live.open).toHaveLength(1);
    tile.dispose();
  });

  it('shows the latest value on the colour of the averaged alert level', () => {
    const { live, key, tile } = streaming({ target: 60 });
    for (let i = 0; i < 10; i++) live.emit(59.94);
    vi.advanceTimersByTime(300);
    expect(bigNumber(key.latest)).toBe('59.9');
    expect(background(key.latest)).toBe(palette.ok);
    // One dip does not raise the alarm (the average over 10 samples stays near the target)...
    live.emit(40);
    vi.advanceTimersByTime(300);
    expect(bigNumber(key.latest)).toBe('40.0');
    expect(background(key.latest)).toBe(palette.ok);
    // ...a sustained drop does.
    for (let i = 0; i < 10; i++) live.emit(40);
    vi.advanceTimersByTime(300);
    expect(background(key.latest)).toBe(palette.error);
    tile.dispose();
  });

  it('turns to NO LINK at once and shows no old value after reconnecting', () => {
    const { live, key, tile } = streaming({ target: 60 });
    live.emit(60);
    vi.advanceTimersByTime(300);
    live.setStatus('offline');
    vi.advanceTimersByTime(300);
    expect(key.latest).toContain('>NO LINK<');
    expect(bigNumber(key.latest)).toBeUndefined();
    live.setStatus('online');
    vi.advanceTimersByTime(300);
    expect(bigNumber(key.latest)).toBeUndefined();
    expect(key.latest).toContain('>NO DATA<');
    live.emit(50);
    vi.advanceTimersByTime(300);
    expect(bigNumber(key.latest)).toBe('50.0');
    tile.dispose();
  });

  it('shows STALE, not NO LINK and no number, when core reports its values stopped, and the value again with the next one', () => {
    const { live, key, tile } = streaming({ target: 60 });
    for (let i = 0; i < 10; i++) live.emit(40);
    vi.advanceTimersByTime(300);
    live.setStatus('stale');
    vi.advanceTimersByTime(300);
    expect(key.latest).toContain('>STALE<');
    expect(key.latest).not.toContain('NO LINK');
    expect(bigNumber(key.latest)).toBeUndefined();
    live.setStatus('online');
    live.emit(59.94);
    vi.advanceTimersByTime(300);
    expect(bigNumber(key.latest)).toBe('59.9');
    // The samples from before the values stopped no longer colour the key.
    expect(background(key.latest)).toBe(palette.ok);
    tile.dispose();
  });

  it('leaves deciding that values stopped to core: a quiet but live subscription keeps its value', () => {
    const { live, key, tile } = streaming({});
    live.emit(60);
    vi.advanceTimersByTime(30_000);
    expect(bigNumber(key.latest)).toBe('60.0');
    tile.dispose();
  });

  it('keeps its subscription when only the target changes, and closes it when it leaves the screen', () => {
    const { live, tile } = setUp();
    tile.configure({ target: 60 }, host);
    tile.configure({ target: 50 }, host);
    expect(live.subscriptions).toHaveLength(1);
    tile.dispose();
    expect(live.open).toHaveLength(0);
  });

  it('neither subscribes nor paints inside a multi-action', () => {
    const { live, key, tile } = setUp(false);
    tile.configure({}, host);
    vi.advanceTimersByTime(1000);
    expect(live.subscriptions).toHaveLength(0);
    expect(key.images).toHaveLength(0);
    tile.dispose();
  });

  it('asks for set-up instead of subscribing with a bad machine name or no host', () => {
    const { live, key, tile } = setUp();
    tile.configure({ machine: 'actor 1"); evil(' }, host);
    vi.advanceTimersByTime(300);
    expect(key.latest).toContain('SET UP');
    tile.configure({}, { kind: 'unset' });
    vi.advanceTimersByTime(300);
    expect(key.latest).toContain('SET UP');
    expect(live.subscriptions).toHaveLength(0);
    tile.dispose();
  });

  it('ignores values that are not numbers', () => {
    const { live, key, tile } = streaming({});
    live.emit('sixty');
    live.emit({ nested: true });
    vi.advanceTimersByTime(300);
    expect(bigNumber(key.latest)).toBeUndefined();
    tile.dispose();
  });

  it('says once a minute, not with every value, that a machine sends FPS that are not numbers', () => {
    const warn = vi.fn();
    const { tile, live } = setUp(true, { ...quietLogger, warn });
    const lines = (): string[] => warn.mock.calls.map(([line]) => String(line));
    tile.configure({}, host);
    live.setStatus('online');
    for (let i = 0; i < 50; i++) live.emit('n/a');
    expect(lines().filter((line) => line.includes('not a number'))).toHaveLength(1);
    vi.advanceTimersByTime(61_000);
    live.emit('n/a');
    const said = lines().filter((line) => line.includes('not a number'));
    expect(said).toHaveLength(2);
    expect(said[1]).toContain('49 more');
  });
});
