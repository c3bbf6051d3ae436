import { setTimeout as delay } from 'node:timers/promises';
import { MediaServer, type ShowClockSnapshot, type TransportWatch } from '@stagelink/core';
import { startSimulator, type LogEntry, type Simulator, type SubscribedValue } from '@stagelink/simulator';
import { compareRounds } from '../harness/compare.js';
import { millis, perSecond } from '../harness/format.js';
import { atMost, type Benchmark, type ResultRow } from '../harness/report.js';
import { median, p99, quantile } from '../harness/stats.js';
import { interleavedRounds } from '../harness/timing.js';

const TRANSPORTS = 20;
const WATCHERS = 20;
/** A surface's frame at 25 fps: the displayed remaining time may be off by at most this (p99). */
const FRAME_MS = 40;
const ACCURACY = { settleMs: 2000, windowMs: 20_000, sampleEveryMs: FRAME_MS };
const COST = { rounds: 3, settleMs: 2000, windowMs: 5000 };
/** 180 subscriptions paced one at a time against an r34 director take seconds; a minute means something is wrong. */
const READY_TIMEOUT_MS = 60_000;
const DIALECT = 'r34';

/**
 * The show clock (`ms.transport.watch`): how far the remaining time it shows is from the director's own playhead
 * with 20 transports watched on one client, and what 20 watchers of one transport cost the director against 20
 * clients each subscribing the clock's properties themselves. The simulator runs in this process, so the truth
 * (`sim.state.transports.positionOf`) is read at the same instant as the clock.
 */
export const showClock: Benchmark = {
  id: 'show-clock',
  name: 'show clock',
  subject: `core's show clock, ${TRANSPORTS} transports watched on one MediaServer, against the ${DIALECT} venue director in this process`,
  baseline: `the director's playhead; ${WATCHERS} MediaServers each subscribing the clock's properties`,
  async run(log) {
    const requests = { count: 0 };
    const countRequests = (entry: LogEntry): void => void (entry.event === 'request' && requests.count++);
    const sim = await startSimulator({ scenario: 'venue', transports: TRANSPORTS, dialect: DIALECT, seed: 1, port: 0, drivePort: 0, log: countRequests });
    try {
      log(`${TRANSPORTS} transports playing, every one watched; ${ACCURACY.windowMs / 1000} s of samples every ${ACCURACY.sampleEveryMs} ms`);
      const accuracy = await measureAccuracy(sim);
      log(`cost at the director: ${COST.rounds} rounds of ${COST.windowMs / 1000} s windows`);
      const cost = await measureCost(sim, requests);
      return { rows: [...accuracyRows(accuracy), ...costRows(cost)], details: { dialect: DIALECT, transports: TRANSPORTS, watchers: WATCHERS, ...ACCURACY, accuracy: accuracySummary(accuracy), cost } };
    } finally {
      await sim.close();
    }
  },
};

interface Accuracy {
  /** Displayed section remaining minus the director's, seconds, per sample. */
  errors: number[];
  /** Samples where the clock showed another section than the director's playhead was in (a boundary crossed). */
  otherSection: number;
}

/**
 * Where each transport plays during the window: `main` and `transport 4`, ... through Preshow (300 s, sections at
 * 120 and 240) at spread places so that some cross a section, none the track's end; `side screens` looping its
 * 30 s section; `lobby` through its one-section hour.
 */
function placeOf(name: string, index: number): { time: number; playmode: 'Play' | 'Loop' } {
  if (name === 'side screens') return { time: 20, playmode: 'Loop' };
  if (name === 'lobby') return { time: 100, playmode: 'Play' };
  return { time: 5 + 12 * index, playmode: 'Play' };
}

async function measureAccuracy(sim: Simulator): Promise<Accuracy> {
  const ms = new MediaServer({ host: sim.mediaServer.url });
  const names = sim.state.transports.list().map((transport) => transport.name);
  const watches = new Map<string, TransportWatch>(names.map((name) => [name, ms.transport.watch({ name }, () => undefined)]));
  try {
    for (const [index, name] of names.entries()) {
      const { time, playmode } = placeOf(name, index);
      await ms.transport.gotoTime({ transport: { name }, time, playmode });
    }
    await until(() => [...watches.values()].every((watch) => ready(watch.current)), 'every clock online, playing, with its track read');
    await delay(ACCURACY.settleMs);
    const truth = new DirectorTruth(sim);
    const accuracy: Accuracy = { errors: [], otherSection: 0 };
    const ends = performance.now() + ACCURACY.windowMs;
    while (performance.now() < ends) {
      for (const [name, watch] of watches) {
        // Read back to back: the clock as a surface would draw it, and the director's own playhead.
        const shown = watch.current;
        const actual = truth.sectionOf(name);
        const section = shown?.section;
        if (!section || shown.track.uid !== actual.trackUid) throw new Error(`The clock of "${name}" shows no section of the director's track.`);
        const error = section.remaining - actual.remaining;
        // A loop that wrapped, or a section entered, between the two reads: the clock is a moment early or late.
        if (section.index !== actual.index || Math.abs(error) > 1) accuracy.otherSection++;
        accuracy.errors.push(error);
      }
      await delay(ACCURACY.sampleEveryMs);
    }
    return accuracy;
  } finally {
    for (const watch of watches.values()) watch.close();
    await ms.close();
  }
}

function ready(snapshot: ShowClockSnapshot | undefined): boolean {
  return snapshot?.status === 'online' && snapshot.playing && snapshot.track.length > 0 && snapshot.section !== undefined;
}

/** The director's playhead and the section it is in, from the simulator's model, as the Designer timeline shows it. */
class DirectorTruth {
  readonly #sections = new Map<string, { index: number; time: number }[]>();
  readonly #lengths: Map<string, number>;

  constructor(private readonly sim: Simulator) {
    this.#lengths = new Map(sim.state.transports.tracks().map((track) => [track.uid, track.length]));
  }

  sectionOf(name: string): { trackUid: string; index: number; remaining: number } {
    const { track, time } = this.sim.state.transports.positionOf({ name });
    let sections = this.#sections.get(track.uid);
    if (!sections) {
      sections = this.sim.state.transports.annotations({ uid: track.uid }).annotations.sections;
      this.#sections.set(track.uid, sections);
    }
    const position = sections.reduce((found, section, index) => (section.time <= time ? index : found), 0);
    const end = sections[position + 1]?.time ?? this.#lengths.get(track.uid) ?? time;
    return { trackUid: track.uid, index: sections[position]?.index ?? 0, remaining: end - time };
  }
}

interface CostWindow {
  sockets: number;
  subscriptions: number;
  framesPerSecond: number;
  valuesPerSecond: number;
  requestsPerSecond: number;
}

type Side = 'clock' | 'separate';

/**
 * 20 watchers of `main` through `ms.transport.watch` on one MediaServer, against 20 MediaServers each subscribing
 * exactly the pairs the clock subscribed at the director (read from the director after the clock's warm-up), as
 * 20 surfaces without a shared clock would. `main` plays throughout.
 */
async function measureCost(sim: Simulator, requests: { count: number }): Promise<Record<Side, CostWindow[]>> {
  const pairs: SubscribedValue[] = [];
  await measureSide(sim, requests, 'clock', [], (subscribed) => pairs.push(...subscribed));
  if (pairs.length === 0) throw new Error('The clock of main subscribed nothing at the director.');
  return interleavedRounds(COST.rounds, {
    clock: () => measureSide(sim, requests, 'clock', pairs),
    separate: () => measureSide(sim, requests, 'separate', pairs),
  });
}

/** One side's window; `seen` is told the pairs subscribed at the director meanwhile. */
async function measureSide(
  sim: Simulator,
  requests: { count: number },
  side: Side,
  pairs: readonly SubscribedValue[],
  seen: (subscribed: SubscribedValue[]) => void = () => undefined,
): Promise<CostWindow> {
  sim.state.transports.jumpPlayhead({ name: 'main' }, 10);
  sim.state.transports.command([{ name: 'main' }], 'play');
  const clients = side === 'clock' ? [new MediaServer({ host: sim.mediaServer.url })] : Array.from({ length: WATCHERS }, () => new MediaServer({ host: sim.mediaServer.url }));
  let values = 0;
  const stopCounting = sim.live.onValueSent(() => void values++);
  try {
    if (side === 'clock') {
      const [ms] = clients as [MediaServer];
      const watches = Array.from({ length: WATCHERS }, () => ms.transport.watch({ name: 'main' }, () => undefined));
      await until(() => watches.every((watch) => watch.current?.timecode !== undefined), 'every property of the clock of main');
    } else {
      const object = pairs[0]?.object ?? '';
      const request = { object, properties: pairs.map((pair) => pair.property), updateFrequencyMs: pairs[0]?.intervalMs ?? 100 };
      for (const ms of clients) ms.live.subscribe(request, () => undefined);
      await until(() => sim.live.stats().subscriptions >= WATCHERS * pairs.length, `${WATCHERS} clients' ${pairs.length} pairs each`);
    }
    await delay(COST.settleMs);
    const stats = sim.live.stats();
    seen(stats.subscribed);
    const before = { frames: stats.framesSent, values, requests: requests.count, at: performance.now() };
    await delay(COST.windowMs);
    const seconds = (performance.now() - before.at) / 1000;
    return {
      sockets: stats.sockets,
      subscriptions: stats.subscriptions,
      framesPerSecond: (sim.live.stats().framesSent - before.frames) / seconds,
      valuesPerSecond: (values - before.values) / seconds,
      requestsPerSecond: (requests.count - before.requests) / seconds,
    };
  } finally {
    stopCounting();
    await Promise.all(clients.map((ms) => ms.close()));
    await until(() => sim.live.stats().sockets === 0, 'every client gone from the director');
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await delay(20);
  }
}

const frames = (seconds: number): string => `${((seconds * 1000) / FRAME_MS).toFixed(2)} frames (${millis(seconds * 1000)})`;

function accuracyRows({ errors, otherSection }: Accuracy): ResultRow[] {
  const absolute = errors.map(Math.abs);
  const note = `${errors.length} samples of ${TRANSPORTS} clocks; ${otherSection} read across a section boundary or a loop's wrap`;
  return [
    { case: `${TRANSPORTS} transports: section remaining error p50`, subject: frames(median(absolute)), baseline: "director's playhead", target: 'reported', verdict: 'reported', note },
    {
      case: `${TRANSPORTS} transports: section remaining error p99`,
      subject: frames(p99(absolute)),
      baseline: "director's playhead",
      target: `p99 <= 1 frame at 25 fps (${FRAME_MS} ms)`,
      verdict: atMost(p99(absolute) * 1000, FRAME_MS),
      note: `shown minus actual: median ${millis(median(errors) * 1000)}, p1 ${millis(quantile(errors, 0.01) * 1000)}, p99 ${millis(quantile(errors, 0.99) * 1000)}`,
    },
  ];
}

function accuracySummary({ errors, otherSection }: Accuracy): Record<string, number> {
  const absoluteMs = errors.map((error) => Math.abs(error) * 1000);
  return { samples: errors.length, otherSection, p50Ms: median(absoluteMs), p99Ms: p99(absoluteMs), maxMs: Math.max(...absoluteMs), signedMedianMs: median(errors) * 1000 };
}

function costRows({ clock, separate }: Record<Side, CostWindow[]>): ResultRow[] {
  const [one, many] = [clock.at(-1), separate.at(-1)] as [CostWindow, CostWindow];
  const pairs = many.subscriptions / WATCHERS;
  const shared = clock.every((window) => window.sockets === 1 && window.subscriptions === pairs);
  const compared = (statistic: (window: CostWindow) => number) => compareRounds(clock.map(statistic), separate.map(statistic));
  const framesCompared = compared((window) => window.framesPerSecond);
  const requestsCompared = compared((window) => window.requestsPerSecond);
  const valuesCompared = compared((window) => window.valuesPerSecond);
  return [
    {
      case: `${WATCHERS} watchers of main: sockets, subscriptions at the director`,
      subject: `${one.sockets}, ${one.subscriptions}`,
      baseline: `${many.sockets}, ${many.subscriptions}`,
      target: `1 socket, ${pairs} subscriptions (one group)`,
      verdict: shared ? 'met' : 'missed',
    },
    {
      case: `${WATCHERS} watchers of main: frames the director sends`,
      subject: perSecond(framesCompared.subject, 'frames'),
      baseline: perSecond(framesCompared.baseline, 'frames'),
      ratioLabel: 'clock / separate',
      ratio: framesCompared.ratio,
      ratioRange: framesCompared.ratioRange,
      target: 'reported',
      verdict: 'reported',
      note:
        `values ${perSecond(valuesCompared.subject, 'values')} against ${perSecond(valuesCompared.baseline, 'values')}; ` +
        `REST requests ${requestsCompared.subject.toFixed(1)}/s against ${requestsCompared.baseline.toFixed(1)}/s (the clock reads its track's annotations every 5 s)`,
    },
  ];
}
