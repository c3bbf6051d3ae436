import { ConnectionError, StagelinkError, type ClockStatus, type Ref, type ShowClockSnapshot, type WatchOptions } from '@stagelink/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clockFace } from '../../src/render/clock-face.js';
import { clockFeedback } from '../../src/render/clock-feedback.js';
import { palette } from '../../src/render/palette.js';
import type { ClockSettings } from '../../src/settings.js';
import { CLOCK_TICK_MS, ClockTile } from '../../src/tiles/clock-tile.js';
import { snapshotAt } from './clock-snapshots.js';
import { readFace, wordsOf } from './face-reading.js';
import { dialRecorder, host, keyRecorder, quietLogger, stubPool, stubServer } from './stubs.js';

/** Core's clock of one transport as the tile sees it: `current` as a test sets it, counted each time it is read. */
class StubWatch {
  snapshot: ShowClockSnapshot | undefined;
  reads = 0;
  closed = false;

  constructor(
    readonly ref: Ref,
    readonly options: WatchOptions,
  ) {}

  get current(): ShowClockSnapshot | undefined {
    this.reads += 1;
    return this.closed ? undefined : this.snapshot;
  }

  close(): void {
    this.closed = true;
  }

  /** Core's clock changed status: `current` says so, and so does onStatus. */
  status(status: ClockStatus, snapshot = this.snapshot): void {
    this.snapshot = snapshot && { ...snapshot, status };
    this.options.onStatus?.(status);
  }
}

const background = (svg: string): string => readFace(svg).background;

describe('the show clock tile', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setUp(visible = true) {
    const stub = stubServer();
    const watches: StubWatch[] = [];
    Object.assign(stub.server.transport, {
      watch: vi.fn((ref: Ref, _onChange: unknown, options: WatchOptions = {}) => {
        const watch = new StubWatch(ref, options);
        watches.push(watch);
        return watch;
      }),
    });
    const key = keyRecorder();
    const context = { pool: stubPool(stub.asMediaServer), logger: quietLogger, visible };
    const tile = new ClockTile(key.surface.setImage, clockFace, context);
    const open = (): StubWatch[] => watches.filter((watch) => !watch.closed);
    return { ...stub, key, tile, watches, open };
  }

  /** A tile on screen for `settings`, whose clock is live with the playhead at `time`. */
  function showing(settings: ClockSettings, time: number) {
    const set = setUp();
    set.tile.configure(settings, host);
    const watch = set.watches[0];
    if (!watch) throw new Error('the tile watches nothing');
    watch.snapshot = snapshotAt(time);
    watch.status('online');
    vi.advanceTimersByTime(CLOCK_TICK_MS + 10);
    return { ...set, watch };
  }

  it("watches its transport through core's clock and draws the section's remaining time", () => {
    const { key, tile, watch } = showing({ transport: 'main' }, 130.4);
    expect(watch.ref).toEqual({ name: 'main' });
    expect(wordsOf(key.latest)).toEqual(['1:50', 'SECTION 1']);
    tile.dispose();
  });

  it('reads the clock on its own timer, at most four times a second, and sends a frame only when the face changes', () => {
    const { key, tile, watch } = showing({ transport: 'main' }, 130.4);
    const [reads, frames] = [watch.reads, key.images.length];
    // A minute of a running clock, as core's `current` moves on with the playhead between updates.
    for (let ms = 0; ms < 60_000; ms += 100) {
      watch.snapshot = snapshotAt(130.4 + (ms + 100) / 1000);
      vi.advanceTimersByTime(100);
    }
    expect(watch.reads - reads).toBeLessThanOrEqual(240);
    expect(watch.reads - reads).toBeGreaterThanOrEqual(200);
    // One frame per second shown, not one per read.
    expect(key.images.length - frames).toBeGreaterThanOrEqual(59);
    expect(key.images.length - frames).toBeLessThanOrEqual(61);
    expect(wordsOf(key.latest)).toEqual(['0:50', 'SECTION 1']);
    tile.dispose();
  });

  it('turns orange under the threshold it is set to, and flashes under the second while playing', () => {
    const { key, tile, watch } = showing({ transport: 'main', warnAt: 30, flashAt: 8 }, 200);
    expect(background(key.latest)).toBe(palette.neutral);
    watch.snapshot = snapshotAt(215);
    vi.advanceTimersByTime(CLOCK_TICK_MS);
    expect(background(key.latest)).toBe(palette.warning);
    const backgrounds = new Set<string>();
    for (let ms = 0; ms < 2000; ms += CLOCK_TICK_MS) {
      watch.snapshot = snapshotAt(234 + ms / 1000);
      vi.advanceTimersByTime(CLOCK_TICK_MS);
      backgrounds.add(background(key.latest));
    }
    expect([...backgrounds].sort()).toEqual([palette.neutral, palette.warning].sort());
    tile.dispose();
  });

  it('says STALE the moment core calls its clock stale, NO LINK when offline, and no number either way', () => {
    const { key, tile, watch } = showing({ transport: 'main' }, 130.4);
    watch.status('stale');
    vi.advanceTimersByTime(CLOCK_TICK_MS);
    expect(wordsOf(key.latest)).toEqual(['main', 'STALE']);
    watch.status('offline');
    vi.advanceTimersByTime(CLOCK_TICK_MS);
    expect(wordsOf(key.latest)).toEqual(['main', 'NO LINK']);
    watch.status('online');
    vi.advanceTimersByTime(CLOCK_TICK_MS);
    expect(wordsOf(key.latest)).toEqual(['1:50', 'SECTION 1']);
    tile.dispose();
  });

  it('before the first playhead, says CONNECTING, then NO LINK or PROBLEM for what core reports, naming it in the log', () => {
    const { key, tile, watches } = setUp();
    quietLogger.warn.mockClear();
    tile.configure({ transport: 'mian' }, host);
    vi.advanceTimersByTime(CLOCK_TICK_MS);
    expect(wordsOf(key.latest)).toEqual(['mian', 'CONNECTING']);
    const watch = watches[0] as StubWatch;
    watch.options.onError?.(new ConnectionError('connect ECONNREFUSED 10.0.0.5:80'));
    vi.advanceTimersByTime(CLOCK_TICK_MS);
    expect(wordsOf(key.latest)).toEqual(['mian', 'NO LINK']);
    watch.options.onError?.(new StagelinkError('There is no transport "mian" on the server, so its clock cannot be shown: check the name.'));
    vi.advanceTimersByTime(CLOCK_TICK_MS);
    expect(wordsOf(key.latest)).toEqual(['mian', 'PROBLEM']);
    expect(quietLogger.warn).toHaveBeenCalledWith(expect.stringMatching(/^Show clock mian: There is no transport "mian"/));
    tile.dispose();
  });

  it('keeps its watch when only what it shows changes, and watches again for another transport', () => {
    const { key, tile, watches, open } = showing({ transport: 'main' }, 130.4);
    tile.configure({ transport: 'main', show: 'trackRemaining' }, host);
    vi.advanceTimersByTime(CLOCK_TICK_MS);
    expect(watches).toHaveLength(1);
    expect(wordsOf(key.latest)).toEqual(['2:50', 'TRACK END']);
    tile.configure({ transport: 'lobby' }, host);
    expect(watches).toHaveLength(2);
    expect(open().map((watch) => watch.ref)).toEqual([{ name: 'lobby' }]);
    tile.dispose();
  });

  it('lets go of the watch and its timer when the key disappears', () => {
    const { tile, watch, open } = showing({ transport: 'main' }, 130.4);
    tile.dispose();
    expect(open()).toEqual([]);
    const reads = watch.reads;
    vi.advanceTimersByTime(5000);
    expect(watch.reads).toBe(reads);
  });

  it('asks for set-up instead of watching without a transport, with a bad threshold or with no host', () => {
    const { key, tile, watches } = setUp();
    tile.configure({}, host);
    vi.advanceTimersByTime(CLOCK_TICK_MS);
    expect(wordsOf(key.latest)).toEqual(['CLOCK', 'SET UP']);
    tile.configure({ transport: 'main', warnAt: -5 }, host);
    vi.advanceTimersByTime(CLOCK_TICK_MS);
    expect(wordsOf(key.latest)).toEqual(['main', 'SET UP']);
    tile.configure({ transport: 'main' }, { kind: 'unset' });
    vi.advanceTimersByTime(CLOCK_TICK_MS);
    expect(wordsOf(key.latest)).toEqual(['main', 'SET UP']);
    expect(watches).toHaveLength(0);
    tile.dispose();
  });

  it('neither watches nor paints inside a multi-action', () => {
    const { key, tile, watches } = setUp(false);
    tile.configure({ transport: 'main' }, host);
    vi.advanceTimersByTime(1000);
    expect(watches).toHaveLength(0);
    expect(key.images).toHaveLength(0);
    tile.dispose();
  });

  it('draws the strip of a Stream Deck + dial from the same clock', () => {
    const stub = stubServer();
    const watch = new StubWatch({ name: 'main' }, {});
    Object.assign(stub.server.transport, { watch: vi.fn(() => watch) });
    const dial = dialRecorder();
    const tile = new ClockTile(
      (json) => dial.surface.setFeedback(JSON.parse(json) as Record<string, unknown>),
      (view) => JSON.stringify(clockFeedback(view)),
      { pool: stubPool(stub.asMediaServer), logger: quietLogger, visible: true },
    );
    tile.configure({ transport: 'main' }, host);
    watch.snapshot = snapshotAt(150);
    vi.advanceTimersByTime(CLOCK_TICK_MS + 10);
    expect(dial.feedback.at(-1)).toMatchObject({ section: { value: 'main \u00b7 SECTION 1' }, remaining: { value: '1:30' }, progress: { value: 25 } });
    tile.dispose();
  });
});
