import { setTimeout as delay } from 'node:timers/promises';
import { startSimulator } from '@stagelink/simulator';
import type { FakeStreamDeck } from '@stagelink/streamdeck/testing';
import { startFastLiveFeed } from '../harness/fast-live-feed.js';
import { atMost, notRun, type Benchmark, type ResultRow } from '../harness/report.js';
import { loadStreamDeckHarness } from '../harness/streamdeck-plugin.js';
import { median } from '../harness/stats.js';
import { processCpuMs } from '../harness/timing.js';

const TILES = 32;
const FEED_HZ = 60;
const MAX_FRAMES_PER_SECOND = 4;
/** The keys settle (first faces, subscriptions) before frames are counted over the window. */
const TIMING = { settleMs: 4000, windowMs: 10_000 };
/** The local machine and the demo session's others (simulator README): four values, eight tiles each. */
const MACHINES = ['', 'actor-1', 'actor-2', 'understudy-1'];
const TARGET = `<= ${MAX_FRAMES_PER_SECOND} frames/s per key`;

/** apps/streamdeck's fake Stream Deck app, loaded at run time once the plugin is known to be built. */

interface TileWindow {
  framesPerSecondByKey: number[];
  shortestGapMsByKey: number[];
  pluginCpuMsPerSecond: number;
  /** How often each distinct value (one per machine) reached the plugin. */
  fedValuesPerSecondPerValue: number;
}

export const streamdeckTiles: Benchmark = {
  id: 'streamdeck-tiles',
  name: 'Stream Deck tiles',
  subject: `${TILES} FPS keys of the built plugin, fed at ${FEED_HZ} Hz, through apps/streamdeck's fake Stream Deck app`,
  baseline: '-',
  async run(log) {
    const harness = await loadStreamDeckHarness();
    if ('reason' in harness) return { rows: [notRun('all', TARGET, harness.reason)], details: {} };
    const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
    const feed = await startFastLiveFeed(sim.mediaServer.url, FEED_HZ);
    const deck = await harness.FakeStreamDeck.start();
    try {
      deck.globalSettings['host'] = feed.url;
      await deck.launch();
      log(`${TILES} keys, ${TIMING.settleMs / 1000} s to settle, then a ${TIMING.windowMs / 1000} s window`);
      const window = await measureTiles(deck, harness.ACTION_UUIDS.fps, () => feed.valuesSent);
      return { rows: rows(window), details: { tiles: TILES, feedHz: FEED_HZ, windowMs: TIMING.windowMs, ...window } };
    } finally {
      await deck.close();
      await feed.close();
      await sim.close();
    }
  },
};


async function measureTiles(deck: FakeStreamDeck, fpsAction: string, valuesSent: () => number): Promise<TileWindow> {
  const contexts = Array.from({ length: TILES }, (_, index) => `fps-${index}`);
  contexts.forEach((context, index) => {
    const settings = { machine: MACHINES[index % MACHINES.length] ?? '', target: 60 };
    deck.appear({ action: fpsAction, context, settings, column: index % 8, row: Math.floor(index / 8) });
  });
  await delay(TIMING.settleMs);
  const pid = deck.pid ?? Number.NaN;
  const [from, started, cpuBefore, valuesBefore] = [deck.commands.length, performance.now(), processCpuMs(pid), valuesSent()];
  await delay(TIMING.windowMs);
  const [seconds, cpuAfter, valuesAfter] = [(performance.now() - started) / 1000, processCpuMs(pid), valuesSent()];
  const frames = deck.commands.slice(from).filter((command) => command.event === 'setImage');
  const framesOf = (context: string): number[] => frames.filter((command) => command.context === context).map((command) => command.at);
  return {
    framesPerSecondByKey: contexts.map((context) => framesOf(context).length / seconds),
    shortestGapMsByKey: contexts.map((context) => shortestGap(framesOf(context))),
    pluginCpuMsPerSecond: (cpuAfter - cpuBefore) / seconds,
    fedValuesPerSecondPerValue: (valuesAfter - valuesBefore) / seconds / MACHINES.length,
  };
}

/** The shortest time between two frames of one key, in ms, from their arrival times at the fake app. */
function shortestGap(times: number[]): number {
  return times.slice(1).reduce((shortest, time, index) => Math.min(shortest, time - (times[index] ?? time)), Number.POSITIVE_INFINITY);
}

function rows(window: TileWindow): ResultRow[] {
  const highest = Math.max(...window.framesPerSecondByKey);
  return [
    {
      case: `frames per key (${TILES} keys)`,
      subject: `${median(window.framesPerSecondByKey).toFixed(2)}/s median, ${highest.toFixed(2)}/s highest`,
      baseline: `fed ${Math.round(window.fedValuesPerSecondPerValue)} values/s`,
      target: TARGET,
      verdict: atMost(highest, MAX_FRAMES_PER_SECOND),
      note: `shortest gap between two frames of a key: ${Math.min(...window.shortestGapMsByKey)} ms`,
    },
    {
      case: 'plugin CPU',
      subject: `${Math.round(window.pluginCpuMsPerSecond)} ms/s`,
      baseline: '-',
      target: 'reported',
      verdict: 'reported',
    },
  ];
}
