import { setTimeout as delay } from 'node:timers/promises';
import { MediaServer } from '@stagelink/core';
import { simControl, startSimulator, type LogEntry, type Simulator } from '@stagelink/simulator';
import type { FakeStreamDeck, JsonObject } from '@stagelink/streamdeck/testing';
import { millis } from '../harness/format.js';
import { atMost, notRun, type Benchmark, type ResultRow } from '../harness/report.js';
import { loadStreamDeckHarness, type StreamDeckHarness } from '../harness/streamdeck-plugin.js';
import { median, p99 } from '../harness/stats.js';

/**
 * How soon the desk answers an operator, through the built plugin and apps/streamdeck's fake Stream Deck app
 * against the simulator: the latencies the plugin's end-to-end tests used to assert, which they now leave to
 * this benchmark (they keep the behaviour: the alert comes and no cue is sent, the touch reads, the wake asks).
 */
const TRIALS = { alerts: 30, cuePairs: 40, touches: 30, wakes: 12 } as const;
/** The targets those tests held. */
const TARGET_MS = { alert: 300, touch: 1000, wakePoll: 1000, wakeReconnect: 1000 } as const;
/** Every answer waits 5 to 35 ms, so that sent together the second step of a multi-action would often land first. */
const JITTER = { ms: 5, jitterMs: 30 } as const;
const CUE_PATH = /\/transport\/(gototrack|play)$/;

/** apps/streamdeck's fake Stream Deck app, loaded at run time once the plugin is known to be built. */

/** One desk: the simulator (its requests seen through `requests`), a client of it, and the plugin on a fake app. */
interface Desk {
  harness: StreamDeckHarness;
  sim: Simulator;
  client: MediaServer;
  deck: FakeStreamDeck;
  requests: LogEntry[];
}

export const deskLatency: Benchmark = {
  id: 'desk-latency',
  name: 'desk latency',
  subject: "the built plugin through apps/streamdeck's fake Stream Deck app, against the simulator in this process",
  baseline: '-',
  async run(log) {
    const harness = await loadStreamDeckHarness();
    if ('reason' in harness) return { rows: [notRun('all', '-', harness.reason)], details: {} };
    const samples: Record<string, number[]> = {};
    let outOfOrder = 0;
    const measures: [string, (desk: Desk) => Promise<Measured>][] = [
      ['cuePairMs', cuePairs],
      ['alertMs', alerts],
      ['touchMs', touches],
    ];
    for (const [name, measure] of measures) {
      log(name);
      await onDesk(harness, async (desk) => {
        const result = await measure(desk);
        samples[name] = result.samples;
        outOfOrder += result.outOfOrder ?? 0;
      });
    }
    log('wakes');
    await onDesk(harness, async (desk) => {
      Object.assign(samples, await wakes(desk));
    });
    return { rows: rows(samples, outOfOrder), details: { trials: TRIALS, outOfOrder, ...samples } };
  },
};


/** One measurement's samples in ms, and for cues how many landed out of order. */
interface Measured {
  samples: number[];
  outOfOrder?: number;
}

/** A fresh desk for one measurement, closed after it whatever happens. */
async function onDesk(harness: StreamDeckHarness, use: (desk: Desk) => Promise<void>): Promise<void> {
  const requests: LogEntry[] = [];
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 7, log: (entry) => requests.push(entry) });
  const client = new MediaServer({ host: sim.mediaServer.url });
  const deck = await harness.FakeStreamDeck.start();
  try {
    deck.globalSettings['host'] = sim.mediaServer.url;
    await deck.launch();
    await use({ harness, sim, client, deck, requests });
  } finally {
    await deck.close();
    await client.close();
    await sim.close();
  }
}

/** Milliseconds from now until `found` returns something, woken by every command the plugin sends. */
async function msUntil(deck: FakeStreamDeck, found: () => unknown, description: string): Promise<number> {
  const started = performance.now();
  await deck.waitFor(() => found() || undefined, description, 30_000);
  return performance.now() - started;
}

/** A multi-action "go to track, play" under jittered answers: from the first press to play answered, and whether in order. */
async function cuePairs({ harness, sim, client, deck, requests }: Desk): Promise<Measured> {
  const tracks = (await client.transport.tracks()).map((track) => track.name);
  const action = harness.ACTION_UUIDS.transport;
  tracks.slice(0, 2).forEach((track, index) => {
    deck.appear({ action, context: `goto-${index}`, settings: { command: 'gototrack', transport: 'main', track, playmode: 'stop' }, isInMultiAction: true });
  });
  deck.appear({ action, context: 'play', settings: { command: 'play', transport: 'main' }, isInMultiAction: true });
  await simControl(sim.mediaServer.url, { action: 'latency', ...JITTER });
  const samples: number[] = [];
  for (let round = 1; round <= TRIALS.cuePairs; round++) {
    const started = performance.now();
    deck.press(`goto-${round % 2}`);
    deck.press('play');
    await deck.waitFor(() => deck.sent('showOk', 'play').length >= round || undefined, `round ${round}: play answered`, 30_000);
    samples.push(performance.now() - started);
  }
  const landed = requests.map((entry) => CUE_PATH.exec(String(entry.path))?.[1]).filter((command) => command !== undefined);
  const outOfOrder = landed.filter((command, index) => command !== (index % 2 === 0 ? 'gototrack' : 'play')).length;
  return { samples, outOfOrder };
}

/** A press while the server is known not to answer: from the press to the alert. */
async function alerts({ harness, sim, deck }: Desk): Promise<Measured> {
  deck.appear({ action: harness.ACTION_UUIDS.transport, context: 'play', settings: { command: 'play', transport: 'main' } });
  await deck.waitForImage('play', (svg) => svg.includes('main'), 'the cue face', 30_000);
  await simControl(sim.mediaServer.url, { action: 'latency', ms: 60_000 });
  await deck.waitForLatestImage('play', (svg) => svg.includes('NO LINK'), 'the no-link face', 30_000);
  const samples: number[] = [];
  for (let press = 1; press <= TRIALS.alerts; press++) {
    deck.press('play');
    samples.push(await msUntil(deck, () => deck.sent('showAlert', 'play').length >= press, `alert ${press}`));
  }
  return { samples };
}

/** A touch on the level dial's strip: from the touch to the strip showing the value set just before. */
async function touches({ harness, client, deck }: Desk): Promise<Measured> {
  const dial = { action: harness.ACTION_UUIDS.level, context: 'dial', controller: 'Encoder', settings: { property: 'volume', transport: 'lobby' } } as const;
  deck.appear(dial);
  const stripShows = (value: string) => deck.feedback('dial').at(-1)?.value === value;
  await msUntil(deck, () => deck.feedback('dial').length > 0, 'the strip');
  const samples: number[] = [];
  for (let touch = 1; touch <= TRIALS.touches; touch++) {
    const level = (touch % 50) / 100 + 0.3;
    await client.transport.setVolume({ transport: { name: 'lobby' }, volume: level });
    deck.send(touchTap(deck, 'dial'));
    samples.push(await msUntil(deck, () => stripShows(`${Math.round(level * 100)}%`), `the strip at ${level}`));
  }
  return { samples };
}

function touchTap(deck: FakeStreamDeck, context: string): JsonObject {
  const key = deck.keys.get(context);
  if (!key) throw new Error(`No dial ${context} on the deck`);
  const payload = { controller: 'Encoder', coordinates: key.coordinates, settings: key.settings, hold: false, tapPos: [100, 50] };
  return { event: 'touchTap', action: key.action, context, device: 'DEVICE-PLUS-1', payload };
}

/** A system wake with a health key and a live FPS key: from the wake to the health request and to the new socket. */
async function wakes({ harness, sim, deck }: Desk): Promise<{ wakePollMs: number[]; wakeReconnectMs: number[] }> {
  let healthAsked = 0;
  const state = sim.state;
  const health = state.health.bind(state);
  state.health = () => {
    healthAsked += 1;
    return health();
  };
  deck.appear({ action: harness.ACTION_UUIDS.health, context: 'health', settings: {} });
  deck.appear({ action: harness.ACTION_UUIDS.fps, context: 'fps', settings: {}, column: 1 });
  const wakePollMs: number[] = [];
  const wakeReconnectMs: number[] = [];
  await until(() => sim.live.stats().sockets === 1 && healthAsked > 0);
  for (let wake = 0; wake < TRIALS.wakes; wake++) {
    // Halfway between two health polls (every 3 s), so the poll of its own cannot be taken for the wake's.
    await delay(1500);
    const [asked, upgrades] = [healthAsked, sim.live.stats().upgradeAttempts];
    const started = performance.now();
    deck.systemWake();
    const polled = until(() => healthAsked > asked).then(() => performance.now() - started);
    const reconnected = until(() => sim.live.stats().upgradeAttempts > upgrades).then(() => performance.now() - started);
    const [pollMs, reconnectMs] = await Promise.all([polled, reconnected]);
    wakePollMs.push(pollMs);
    wakeReconnectMs.push(reconnectMs);
    await until(() => sim.live.stats().sockets === 1);
  }
  return { wakePollMs, wakeReconnectMs };
}

/** Checks `done` every millisecond or so, for at most 30 s. */
async function until(done: () => boolean): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (!done()) {
    if (performance.now() > deadline) throw new Error('the desk did not get there within 30 s');
    await delay(1);
  }
}

function latencyRow(caseName: string, samples: readonly number[] | undefined, targetMs: number | undefined, note?: string): ResultRow {
  if (!samples || samples.length === 0) return notRun(caseName, '-', 'no samples');
  const [p50, worst] = [median(samples), p99(samples)];
  const target = targetMs === undefined ? 'reported' : `p99 <= ${millis(targetMs)}`;
  return {
    case: `${caseName} (${samples.length} trials)`,
    subject: `p50 ${millis(p50)}, p99 ${millis(worst)}`,
    baseline: '-',
    target,
    verdict: targetMs === undefined ? 'reported' : atMost(worst, targetMs),
    ...(note ? { note } : {}),
  };
}

function rows(samples: Record<string, number[]>, outOfOrder: number): ResultRow[] {
  return [
    latencyRow('press to alert, link down', samples['alertMs'], TARGET_MS.alert, 'no cue is sent; core asks the server once, briefly, first'),
    {
      ...latencyRow('multi-action go to track, play: first press to play answered', samples['cuePairMs'], undefined, `answers jittered ${JITTER.ms} to ${JITTER.ms + JITTER.jitterMs} ms`),
      target: 'every pair lands in order',
      verdict: outOfOrder === 0 ? 'met' : 'missed',
      note: `${outOfOrder} cues out of order; answers jittered ${JITTER.ms} to ${JITTER.ms + JITTER.jitterMs} ms`,
    },
    latencyRow('strip touch to its value', samples['touchMs'], TARGET_MS.touch, 'the transports poll alone reads every 2 s'),
    latencyRow('wake to health request', samples['wakePollMs'], TARGET_MS.wakePoll, 'the health poll alone reads every 3 s'),
    latencyRow('wake to new live socket', samples['wakeReconnectMs'], TARGET_MS.wakeReconnect, 'a healthy socket, replaced at once'),
  ];
}
