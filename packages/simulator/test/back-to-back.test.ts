import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BACK_TO_BACK_MS, simControl, startSimulator, type Simulator } from '../src/index.js';
import { BackToBack } from '../src/live/back-to-back.js';
import { acknowledged, AVERAGE, CPU_AVERAGE, LOCAL_CPU, LOCAL_FPS, MAIN_BRIGHTNESS, openLiveSocket, pause, unsubscribed, until, type LiveSocket } from './support/live-socket.js';

/**
 * Designer loses a live-update frame that arrives right behind another it has not answered, and answers
 * `{"error": "Invalid JSON"}`: the simulator's `backToBackMs`, on by default in the r34 dialect, over real sockets.
 */

const INVALID_JSON = { error: 'Invalid JSON' };
const GPU = 'subsystem:MonitoringManager.findLocalMonitor("GPUProfiler")';
const GPU_TOTAL = 'object.seriesAverage("Total", 1)';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the back-to-back rule', () => {
  let clock = 0;
  const rule = (windowMs = 20) => new BackToBack(() => windowMs, () => clock);

  it('refuses a frame inside the window while the previous one is unanswered', () => {
    const frames = rule();
    expect(frames.accepts()).toBe(true);
    clock += 5;
    expect(frames.accepts()).toBe(false);
    clock += 5;
    expect(frames.accepts()).toBe(false);
    clock += 20;
    expect(frames.accepts()).toBe(true);
  });

  it('takes a frame inside the window once the previous one was answered in an earlier turn', async () => {
    const frames = rule();
    expect(frames.accepts()).toBe(true);
    frames.answered();
    // In the same turn the answer has not left yet: a frame read with the first is still back to back.
    expect(frames.accepts()).toBe(false);
    frames.answered();
    await nextTurn();
    expect(frames.accepts()).toBe(true);
    frames.dispose();
  });

  it('takes every frame when the window is 0', () => {
    const frames = rule(0);
    expect([frames.accepts(), frames.accepts(), frames.accepts()]).toEqual([true, true, true]);
  });
});

describe.each(['r34', 'spec'] as const)('back-to-back frames in the %s dialect', (dialect) => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ dialect, port: 0, drivePort: 0 });
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.reset());
  const control = (request: { action: string; [key: string]: unknown }) => simControl(sim.mediaServer.url, request);
  const withLive = async (test: (live: LiveSocket) => Promise<void>) => {
    const live = await openLiveSocket(sim.mediaServer.url);
    try {
      await test(live);
    } finally {
      live.close();
    }
  };
  const on = BACK_TO_BACK_MS[dialect] > 0;

  it(`is ${on ? `on (${BACK_TO_BACK_MS[dialect]} ms)` : 'off'} by default, and back to that after a reset`, async () => {
    expect((await control({ action: 'status' })).live.faults.backToBackMs).toBe(dialect === 'r34' ? 20 : 0);
    await control({ action: 'backToBack', ms: 100 });
    expect((await control({ action: 'reset' })).live.faults.backToBackMs).toBe(BACK_TO_BACK_MS[dialect]);
  });

  it(on ? 'answers a subscribe sent right behind another with Invalid JSON and loses it' : 'takes subscribes sent in one burst', () =>
    withLive(async (live) => {
      // A wide window on: two frames sent together count as back to back however busy the machine is.
      if (on) await control({ action: 'backToBack', ms: 60_000 });
      live.subscribe(LOCAL_FPS, AVERAGE);
      live.subscribe(LOCAL_CPU, CPU_AVERAGE);
      await until(() => live.listing(LOCAL_FPS, AVERAGE) !== undefined, 'the first list');
      // A frame sent after the answers shows the server still reads the socket, and lets every answer arrive.
      await acknowledged(live, GPU, GPU_TOTAL);
      const summary = await control({ action: 'status' });
      if (on) {
        expect(live.errors().map(({ frame }) => frame)).toEqual([INVALID_JSON]);
        expect(live.listing(LOCAL_CPU, CPU_AVERAGE)).toBeUndefined();
        expect(summary.live.rejectedFrames).toBe(1);
        expect(summary.live.subscribed.map(({ object }) => object)).toEqual([LOCAL_FPS, GPU]);
      } else {
        expect(live.errors()).toEqual([]);
        expect(live.listing(LOCAL_CPU, CPU_AVERAGE)).toBeDefined();
        expect(summary.live.rejectedFrames).toBe(0);
      }
    }));

  it('takes every frame of a client that sends the next one after the answer, and counts none rejected', () =>
    withLive(async (live) => {
      await control({ action: 'backToBack', ms: 20 });
      const ids: number[] = [];
      for (const [object, property] of [[LOCAL_FPS, AVERAGE], [LOCAL_CPU, CPU_AVERAGE], [GPU, GPU_TOTAL], MAIN_BRIGHTNESS] as const) {
        ids.push(await acknowledged(live, object, property));
      }
      for (const id of ids.slice(0, 2)) await unsubscribed(live, id);
      expect(live.errors()).toEqual([]);
      expect((await control({ action: 'status' })).live).toMatchObject({ rejectedFrames: 0, subscriptions: 2 });
    }));

  it('loses a frame inside the window behind a set, which has no answer, and takes one behind an answered subscribe', () =>
    withLive(async (live) => {
      await control({ action: 'backToBack', ms: 1000 });
      const brightness = await acknowledged(live, ...MAIN_BRIGHTNESS);
      // Answered: the next subscribe is taken at once, well inside the window.
      const fps = await acknowledged(live, LOCAL_FPS, AVERAGE);
      live.socket.send(JSON.stringify({ set: [{ id: brightness, value: 0.5 }] }));
      await until(() => live.valuesOf(brightness).some(({ value }) => value === 0.5), 'the first write');
      live.socket.send(JSON.stringify({ set: [{ id: brightness, value: 0.25 }] }));
      await until(() => live.errors().length === 1, 'the refusal of the write behind it');
      expect(live.errors()[0]?.frame).toEqual(INVALID_JSON);
      expect(sim.state.transports.list().find(({ name }) => name === 'main')?.brightness).toBe(0.5);

      await pause(1100);
      live.socket.send(JSON.stringify({ set: [{ id: brightness, value: 0.25 }] }));
      await until(() => live.valuesOf(brightness).some(({ value }) => value === 0.25), 'the write sent a window later');
      expect(live.valuesOf(fps).length).toBeGreaterThan(0);
      expect((await control({ action: 'status' })).live.rejectedFrames).toBe(1);
    }));

  it('does not count a WebSocket ping as a frame', () =>
    withLive(async (live) => {
      await control({ action: 'backToBack', ms: 1000 });
      const pong = new Promise((resolve) => live.socket.once('pong', resolve));
      live.socket.ping();
      await pong;
      await acknowledged(live, LOCAL_FPS, AVERAGE);
      expect((await control({ action: 'status' })).live.rejectedFrames).toBe(0);
    }));

  it('is switched by the backToBack control action, 0 being off, and refuses a window that is not a whole number of ms', async () => {
    expect((await control({ action: 'backToBack', ms: 0 })).live.faults.backToBackMs).toBe(0);
    await withLive(async (live) => {
      live.subscribe(LOCAL_FPS, AVERAGE);
      live.subscribe(LOCAL_CPU, CPU_AVERAGE);
      await until(() => live.listing(LOCAL_CPU, CPU_AVERAGE) !== undefined, 'both answered');
      expect(live.errors()).toEqual([]);
    });
    await expect(control({ action: 'backToBack', ms: -1 })).rejects.toThrow(/answered 400: ms must be a whole number from 0 to 60000/);
    await expect(control({ action: 'backToBack' })).rejects.toThrow(/answered 400: ms is missing/);
  });
});

describe('the backToBackMs option', () => {
  it('overrides the dialect default, also after a reset', async () => {
    const sim = await startSimulator({ dialect: 'r34', port: 0, drivePort: 0, backToBackMs: 0 });
    try {
      expect(sim.live.faults.backToBackMs).toBe(0);
      sim.reset();
      expect(sim.live.faults.backToBackMs).toBe(0);
      const live = await openLiveSocket(sim.mediaServer.url);
      try {
        live.subscribe(LOCAL_FPS, AVERAGE);
        live.subscribe(LOCAL_CPU, CPU_AVERAGE);
        await until(() => live.listing(LOCAL_CPU, CPU_AVERAGE) !== undefined, 'both answered');
        expect(sim.live.stats().rejectedFrames).toBe(0);
      } finally {
        live.close();
      }
    } finally {
      await sim.close();
    }
  });

  it('refuses a window that is not a whole number of ms', async () => {
    await expect(startSimulator({ backToBackMs: 1.5 })).rejects.toThrow(/back-to-back window \(ms\) must be a whole number from 0 to 60000/);
  });
});
