import { setTimeout as delay } from 'node:timers/promises';
import { livePresets, MediaServer, type LiveRequest, type LiveSubscription, type TransportWatch } from '@stagelink/core';
import { simControl, startSimulator, type Simulator } from '@stagelink/simulator';
import { compareRounds } from '../harness/compare.js';
import { millis } from '../harness/format.js';
import { atMost, type Benchmark, type ResultRow } from '../harness/report.js';
import { median, p99 } from '../harness/stats.js';
import { interleavedRounds } from '../harness/timing.js';

const DIALECT = 'r34';
/** The storm before lost frames were paced: one client against a director answering every frame "Invalid JSON". */
const OLD_STORM = '218,060 frames in 10 s';
const LOST = { settleMs: 1000, windowMs: 10_000 };
const DRAG = { rounds: 6, leadMs: 300, hz: 60 };
/** Not a target the tests hold: a new subscription during a drag should come up within this. */
const DRAG_TARGET_MS = 500;
const CLOCKS = { count: 5, answerMs: 250, settleMs: 2000, windowMs: 10_000, rounds: 3 };
/** A subscription that takes this long is a failure, not a slow sample. */
const UP_TIMEOUT_MS = 30_000;

/**
 * How core's live stream paces its frames where a director makes it hard: one that loses every frame ("Invalid
 * JSON" to each), a fader dragged at 60 Hz while a new subscription is asked for, and five show clocks (their quiet
 * pairs probed) on a director that answers in a quarter of a second. The r34 simulator runs in this process.
 */
export const livePacing: Benchmark = {
  id: 'live-pacing',
  name: 'live pacing',
  subject: `core live update against the ${DIALECT} simulator in this process: a director losing every frame, a 60 Hz volume drag, ${CLOCKS.count} show clocks on a director answering in ${CLOCKS.answerMs} ms`,
  baseline: 'the same new subscription with no drag, and with no clocks, on the same director in the same run',
  async run(log) {
    const sim = await startSimulator({ scenario: 'venue', transports: CLOCKS.count, dialect: DIALECT, seed: 1, port: 0, drivePort: 0 });
    try {
      log(`a director losing every frame: ${LOST.windowMs / 1000} s window`);
      const lost = await lostFrames(sim);
      log(`a new subscription during a ${DRAG.hz} Hz drag: ${DRAG.rounds} rounds`);
      const drag = await interleavedRounds(DRAG.rounds, { drag: () => upDuring(sim, true), idle: () => upDuring(sim, false) });
      log(`${CLOCKS.count} show clocks on a director answering in ${CLOCKS.answerMs} ms: ${CLOCKS.rounds} rounds`);
      const clocks = await probeLoad(sim);
      return { rows: [lostRow(lost), dragRow(drag), ...clockRows(clocks)], details: { dialect: DIALECT, lost, drag, clocks } };
    } finally {
      await sim.close();
    }
  },
};

const control = (sim: Simulator, request: { action: string; [key: string]: unknown }) => simControl(sim.mediaServer.url, request);
const framesReceived = (sim: Simulator): number => sim.live.stats().framesReceived;

/** Frames a second the client sends, with three subscriptions and a write, while the director loses every frame. */
async function lostFrames(sim: Simulator): Promise<{ framesPerSecond: number; refusedErrors: number }> {
  await control(sim, { action: 'reset' });
  await control(sim, { action: 'loseLiveFrames', on: true });
  const ms = new MediaServer({ host: sim.mediaServer.url });
  let refusedErrors = 0;
  const onError = (error: { code: string }) => void (error.code === 'STAGELINK_ERR_LIVE_FRAME_REFUSED' && refusedErrors++);
  try {
    const subscriptions = [livePresets.localFps(), livePresets.cpu(), livePresets.transportVolume('main')].map((request) => ms.live.subscribe(request, () => undefined, { onError }));
    await delay(LOST.settleMs);
    const before = framesReceived(sim);
    await delay(LOST.windowMs);
    const framesPerSecond = (framesReceived(sim) - before) / (LOST.windowMs / 1000);
    for (const subscription of subscriptions) subscription.close();
    return { framesPerSecond, refusedErrors };
  } finally {
    await ms.close();
    await control(sim, { action: 'loseLiveFrames', on: false });
  }
}

/** Ms from asking for a new subscription to its first value, with `main`'s volume dragged at 60 Hz meanwhile or not. */
async function upDuring(sim: Simulator, dragging: boolean): Promise<number> {
  const ms = new MediaServer({ host: sim.mediaServer.url });
  let drag: NodeJS.Timeout | undefined;
  try {
    const volume = await firstValue(ms, livePresets.transportVolume('main'));
    let step = 0;
    let written = 0;
    if (dragging) drag = setInterval(() => void volume.set(0.2 + (step++ % 60) / 100).then(() => written++, () => undefined), 1000 / DRAG.hz);
    await delay(DRAG.leadMs);
    if (dragging && written === 0) throw new Error('the drag wrote nothing');
    const asked = performance.now();
    await firstValue(ms, livePresets.localFps());
    return performance.now() - asked;
  } finally {
    clearInterval(drag);
    await ms.close();
  }
}

interface ClockWindow {
  /** Frames a second the client sends with the clocks online. */
  framesPerSecond: number;
  /** Ms from asking for a new subscription to its first value, clocks watching. */
  clocksUpMs: number;
  /** Clocks online when the window was measured: all of them, or those that were after UP_TIMEOUT_MS. */
  online: number;
  /** The same with no clocks, on the same socket kind and director. */
  aloneUpMs: number;
}

/** Five clocks on the director answering late: frames a second, and how soon a new subscription comes up beside them. */
async function probeLoad(sim: Simulator): Promise<ClockWindow[]> {
  await control(sim, { action: 'reset' });
  await control(sim, { action: 'lateLiveAnswers', ms: CLOCKS.answerMs });
  await control(sim, { action: 'latency', ms: CLOCKS.answerMs });
  const names = sim.state.transports.list().map((transport) => transport.name).slice(0, CLOCKS.count);
  const windows: ClockWindow[] = [];
  try {
    for (let round = 0; round < CLOCKS.rounds; round++) {
      const ms = new MediaServer({ host: sim.mediaServer.url });
      const watches: TransportWatch[] = names.map((name) => ms.transport.watch({ name }, () => undefined));
      try {
        // Measured whether or not every clock came online: a clock that stays stale on this director is a finding to report.
        await until(() => watches.every((watch) => watch.current?.status === 'online'), 'every clock online').catch(() => undefined);
        const online = watches.filter((watch) => watch.current?.status === 'online').length;
        await delay(CLOCKS.settleMs);
        const before = framesReceived(sim);
        await delay(CLOCKS.windowMs);
        const framesPerSecond = (framesReceived(sim) - before) / (CLOCKS.windowMs / 1000);
        const started = performance.now();
        await firstValue(ms, newPair(round));
        const clocksUpMs = performance.now() - started;
        for (const watch of watches) watch.close();
        windows.push({ framesPerSecond, clocksUpMs, online, aloneUpMs: await upAlone(sim, round) });
      } finally {
        await ms.close();
      }
    }
  } finally {
    await control(sim, { action: 'reset' });
  }
  return windows;
}

/** A new subscription on an open socket that holds one other, no clocks. */
async function upAlone(sim: Simulator, round: number): Promise<number> {
  const ms = new MediaServer({ host: sim.mediaServer.url });
  try {
    await firstValue(ms, livePresets.localFps());
    const started = performance.now();
    await firstValue(ms, newPair(round));
    return performance.now() - started;
  } finally {
    await ms.close();
  }
}

/** The director's FPS averaged over a few seconds: a pair no clock holds, another each round so none is subscribed yet. */
function newPair(round: number): LiveRequest {
  const { object } = livePresets.localFps();
  return { object, properties: [`object.seriesAverage("Actual", ${round + 2})`], updateFrequencyMs: 100 };
}

/** Subscribes and resolves with the subscription at its first value; it stays open until the client closes. */
function firstValue(ms: MediaServer, request: LiveRequest): Promise<LiveSubscription> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no value of ${request.object} within ${UP_TIMEOUT_MS} ms`)), UP_TIMEOUT_MS);
    const subscription: LiveSubscription = ms.live.subscribe(request, () => {
      clearTimeout(timer);
      resolve(subscription);
    });
  });
}

async function until(check: () => boolean, what: string): Promise<void> {
  const ends = performance.now() + UP_TIMEOUT_MS;
  while (!check()) {
    if (performance.now() > ends) throw new Error(`not ${what} within ${UP_TIMEOUT_MS} ms`);
    await delay(50);
  }
}

function lostRow(lost: { framesPerSecond: number; refusedErrors: number }): ResultRow {
  return {
    case: 'director losing every frame: frames the client sends',
    subject: `${lost.framesPerSecond.toFixed(1)} frames/s`,
    baseline: '-',
    target: 'reported',
    verdict: 'reported',
    note: `3 subscriptions, ${lost.refusedErrors} refused-frame errors told in ${LOST.windowMs / 1000} s; before the fix one client sent ${OLD_STORM}`,
  };
}

function dragRow({ drag, idle }: { drag: number[]; idle: number[] }): ResultRow {
  const compared = compareRounds(drag, idle);
  return {
    case: `new subscription up during a ${DRAG.hz} Hz drag: p50 / p99`,
    subject: `${millis(median(drag))} / ${millis(p99(drag))}`,
    baseline: `${millis(median(idle))} / ${millis(p99(idle))}`,
    ratioLabel: 'drag / no drag',
    ratio: compared.ratio,
    ratioRange: compared.ratioRange,
    target: `p99 <= ${DRAG_TARGET_MS} ms`,
    verdict: atMost(p99(drag), DRAG_TARGET_MS),
    note: `${DRAG.rounds} rounds; the volume set through LiveSubscription.set`,
  };
}

function clockRows(windows: ClockWindow[]): ResultRow[] {
  const up = compareRounds(windows.map((window) => window.clocksUpMs), windows.map((window) => window.aloneUpMs));
  return [
    {
      case: `${CLOCKS.count} show clocks, director answering in ${CLOCKS.answerMs} ms: frames the client sends`,
      subject: `${median(windows.map((window) => window.framesPerSecond)).toFixed(1)} frames/s`,
      baseline: '-',
      target: 'reported',
      verdict: 'reported',
      note: `${CLOCKS.rounds} rounds of ${CLOCKS.windowMs / 1000} s; quiet pairs probed every 5 s (unsubscribe, subscribe); clocks online after ${UP_TIMEOUT_MS / 1000} s: ${windows.map((window) => `${window.online}/${CLOCKS.count}`).join(', ')}`,
    },
    {
      case: `${CLOCKS.count} show clocks, director answering in ${CLOCKS.answerMs} ms: new subscription up`,
      subject: millis(up.subject),
      baseline: millis(up.baseline),
      ratioLabel: 'clocks / no clocks',
      ratio: up.ratio,
      ratioRange: up.ratioRange,
      target: 'reported',
      verdict: 'reported',
      note: `median of ${CLOCKS.rounds} rounds`,
    },
  ];
}
