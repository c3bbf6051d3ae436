import { setTimeout as delay } from 'node:timers/promises';
import { MediaServer } from '@stagelink/core';
import { startSimulator } from '@stagelink/simulator';
import type { FakeStreamDeck } from '@stagelink/streamdeck/testing';
import { atLeast, notRun, type Benchmark, type ResultRow } from '../harness/report.js';
import { loadStreamDeckHarness, type StreamDeckHarness } from '../harness/streamdeck-plugin.js';
import { median } from '../harness/stats.js';

/**
 * How often a Level dial's touch strip follows a turning hand, through the built plugin and apps/streamdeck's fake
 * Stream Deck app against the simulator: ticks sent at a hand's pace, each moving the level by 1 %, and the strip's
 * frames counted while the dial turns. A key repaints at most 4 times a second; a strip should follow at about 20.
 */
const TICK_RATES_PER_S = [10, 25] as const;
/** Ticks per turn: each turn moves the level from 10 % up, never reaching 100 %. */
const TICKS = 80;
const TURNS = 3;
/** The strip's frames a second at 25 ticks a second (the plugin paces strips at 20). */
const TARGET_PER_S = 15;
/** A key's pace: what the strip did before it had its own. */
const KEY_PER_S = 4;

export const dialStripRate: Benchmark = {
  id: 'dial-strip-rate',
  name: 'dial strip rate',
  subject: "the built plugin's Level dial through apps/streamdeck's fake Stream Deck app, against the simulator in this process",
  baseline: `a key's ${KEY_PER_S} frames a second`,
  async run(log) {
    const harness = await loadStreamDeckHarness();
    if ('reason' in harness) return { rows: [notRun('all', '-', harness.reason)], details: {} };
    const rates: Record<string, number[]> = {};
    for (const ticksPerS of TICK_RATES_PER_S) {
      log(`${ticksPerS} ticks/s`);
      rates[`${ticksPerS}`] = await turns(harness, ticksPerS);
    }
    return { rows: TICK_RATES_PER_S.map((ticksPerS) => row(ticksPerS, rates[`${ticksPerS}`] ?? [])), details: { ticks: TICKS, turns: TURNS, framesPerSecond: rates } };
  },
};

/** Frames a second the strip showed in each turn at `ticksPerS`, on a fresh plugin and simulator. */
async function turns(harness: StreamDeckHarness, ticksPerS: number): Promise<number[]> {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 7 });
  const client = new MediaServer({ host: sim.mediaServer.url });
  const deck = await harness.FakeStreamDeck.start();
  try {
    deck.globalSettings['host'] = sim.mediaServer.url;
    await deck.launch();
    deck.appear({ action: harness.ACTION_UUIDS.level, context: 'dial', controller: 'Encoder', settings: { property: 'volume', transport: 'lobby' } });
    const rates: number[] = [];
    for (let turn = 0; turn < TURNS; turn++) {
      await client.transport.setVolume({ transport: { name: 'lobby' }, volume: 0.1 });
      await deck.waitFor(() => deck.feedback('dial').at(-1)?.value === '10%' || undefined, 'the strip at 10%', 30_000);
      rates.push(await turnOnce(deck, ticksPerS));
      // The dial's last write lands before the next turn starts from 10 %, so it cannot undo the reset.
      await serverAt(client, 0.1 + TICKS / 100);
    }
    return rates;
  } finally {
    await deck.close();
    await client.close();
    await sim.close();
  }
}

/** Waits (at most 30 s) until the lobby's volume on the server is `volume`. */
async function serverAt(client: MediaServer, volume: number): Promise<void> {
  const deadline = performance.now() + 30_000;
  for (;;) {
    const { transports } = await client.transport.transports();
    const now = transports.find((transport) => transport.name === 'lobby')?.volume;
    if (now !== undefined && Math.abs(now - volume) < 0.001) return;
    if (performance.now() > deadline) throw new Error(`the lobby's volume stayed at ${String(now)}, not ${volume}`);
    await delay(50);
  }
}

/** One turn of TICKS ticks at `ticksPerS`: the strip's frames a second from the first tick to the last. */
async function turnOnce(deck: FakeStreamDeck, ticksPerS: number): Promise<number> {
  const before = deck.feedback('dial').length;
  const started = performance.now();
  for (let tick = 1; tick <= TICKS; tick++) {
    deck.dialRotate('dial', 1);
    // Paced against the clock, not by sleeping a fixed gap, so a slow tick does not slow the hand.
    const due = started + (tick * 1000) / ticksPerS;
    await delay(Math.max(0, due - performance.now()));
  }
  const seconds = (performance.now() - started) / 1000;
  const frames = deck.feedback('dial').length - before;
  const target = `${10 + TICKS}%`;
  await deck.waitFor(() => deck.feedback('dial').at(-1)?.value === target || undefined, `the strip at ${target}`, 30_000);
  return frames / seconds;
}

function row(ticksPerS: number, rates: readonly number[]): ResultRow {
  if (rates.length === 0) return notRun(`${ticksPerS} ticks/s`, '-', 'no turns');
  const rate = median(rates);
  const targeted = ticksPerS >= 25;
  return {
    case: `strip frames while turning at ${ticksPerS} ticks/s (${rates.length} turns of ${TICKS} ticks)`,
    subject: `${rate.toFixed(1)} frames/s`,
    baseline: `${KEY_PER_S} frames/s`,
    ratioLabel: 'strip / key',
    ratio: rate / KEY_PER_S,
    target: targeted ? `>= ${TARGET_PER_S} frames/s` : 'reported',
    verdict: targeted ? atLeast(rate, TARGET_PER_S) : 'reported',
    note: `frames counted from the first tick to the last; median of ${rates.length} turns`,
  };
}
