import { livePresets, MediaServer, type LiveRequest, type LiveStatus, type LiveSubscription, type LiveTiming } from '@stagelink/core';
import type { Random } from '../gen/random.js';
import type { Tally } from '../report/tally.js';
import { waitUntil } from '../support/time.js';
import type { FieldTarget } from './target.js';

/** Core's liveness timings, shortened so that a round takes seconds (the defaults are about 10 s). */
export const SHORT_LIVENESS: Partial<LiveTiming> = { silenceMinMs: 300, answerWaitMs: 300, probeBaseMs: 200, probeCapMs: 400 };
const INTERVAL_MS = 100;
/**
 * How long a subscription may stay `online` after its last value: the silence before a probe (10 intervals, at
 * least silenceMinMs), the probe's wait for an answer, and slack for a busy machine.
 */
export const STALE_BOUND_MS = Math.max(300, INTERVAL_MS * 10) + 300 + 2000;
/** After the values come back, the next probe (at most probeCapMs away) brings one: live again by then, with slack. */
const LIVE_AGAIN_MS = 400 + 300 + 2000;
const LOOK_EVERY_MS = 50;

/** Object expressions of the values watched, and the text of the `silentLive` patterns that quieten them. */
const WATCHED: readonly { pattern: string; request: LiveRequest }[] = [
  { pattern: 'findLocalMonitor("fps")', request: livePresets.localFps() },
  { pattern: 'findLocalMonitor("CPU")', request: livePresets.cpu() },
  { pattern: 'findLocalMonitor("GPUMemory")', request: livePresets.gpuMemory() },
  { pattern: 'findLocalMonitor("ProcessMemory")', request: livePresets.processMemory() },
];
/** Silences every value at once. */
const EVERYTHING = 'MonitoringManager';

/** One consumer of a value, as a front end holds it: the last value's time and the statuses it was told. */
class Consumer {
  lastValueAt = performance.now();
  /** Set when it was seen `online` past the bound after its last value; cleared by the next value. */
  shownLiveWhileStale = false;
  readonly subscription: LiveSubscription;

  constructor(
    ms: MediaServer,
    readonly pattern: string,
    request: LiveRequest,
  ) {
    this.subscription = ms.live.subscribe({ ...request, updateFrequencyMs: INTERVAL_MS }, () => {
      this.lastValueAt = performance.now();
      this.shownLiveWhileStale = false;
    });
  }

  get status(): LiveStatus {
    return this.subscription.status;
  }

  silentForMs(now: number): number {
    return now - this.lastValueAt;
  }
}

/**
 * Live values that stop after a random number of values (`silentLive` with `afterValues`), on some or all of the
 * values a client watches, with two consumers sharing one of them; the director sends every value at every
 * interval meanwhile (`liveOnChangeOnly` off), so silence means the values stopped. No consumer may stay
 * `online` longer than the bound after its values stopped (stale shown as live); each silenced one is `stale`
 * before its values return and `online` again after; the others stay `online`; the director holds one
 * subscription per value throughout, probes or not.
 */
export async function silentSubscriptions(target: FieldTarget, random: Random, rounds: number, tally: Tally): Promise<void> {
  await target.control({ action: 'liveOnChangeOnly', on: false });
  const ms = new MediaServer({ host: target.url, live: SHORT_LIVENESS });
  const consumers = [...WATCHED.map(({ pattern, request }) => new Consumer(ms, pattern, request)), new Consumer(ms, WATCHED[0]?.pattern ?? '', livePresets.localFps())];
  const watch = new StaleWatch(ms, consumers, tally);
  try {
    for (let round = 0; round < rounds; round++) {
      const where = `seed ${random.seed}, round ${round + 1}`;
      if (!(await waitUntil(() => consumers.every((consumer) => consumer.status === 'online' && consumer.silentForMs(performance.now()) < 1000), 10_000))) {
        tally.finding(`values were not all live before the round (${where}): ${consumers.map((consumer) => consumer.status).join(', ')}`);
        continue;
      }
      const patterns = random.chance(0.2) ? [EVERYTHING] : pickSome(random, WATCHED.map(({ pattern }) => pattern));
      const afterValues = random.integer(0, 15);
      for (const pattern of patterns) await target.control({ action: 'silentLive', pattern, on: true, afterValues });
      const silenced = consumers.filter((consumer) => patterns.some((pattern) => consumer.pattern.includes(pattern) || pattern === EVERYTHING));
      const quiet = consumers.filter((consumer) => !silenced.includes(consumer));
      watch.where = `${where}, silentLive ${patterns.join(' + ')} after ${afterValues} values`;
      const wentStale = await waitUntil(() => silenced.every((consumer) => consumer.status === 'stale'), afterValues * INTERVAL_MS + STALE_BOUND_MS + 2000);
      for (const consumer of silenced) {
        tally.inputs++;
        if (consumer.status === 'stale') tally.ok++;
        // One shown online past the bound is counted by the watch already.
        else if (!wentStale && !consumer.shownLiveWhileStale) tally.finding(`a silenced value was ${consumer.status}, not stale, ${((afterValues * INTERVAL_MS + STALE_BOUND_MS) / 1000).toFixed(1)} s after its values stopped (${watch.where})`);
      }
      for (const consumer of quiet) {
        tally.inputs++;
        if (tally.expect(consumer.status === 'online', `a value that kept coming was reported ${consumer.status} (${watch.where})`)) tally.ok++;
      }
      for (const pattern of patterns) await target.control({ action: 'silentLive', pattern, on: false });
      const back = await waitUntil(() => consumers.every((consumer) => consumer.status === 'online'), LIVE_AGAIN_MS);
      tally.expect(back === true, `values not live again within ${LIVE_AGAIN_MS / 1000} s of coming back (${watch.where}): ${consumers.map((consumer) => consumer.status).join(', ')}`);
      await checkOnePerPair(target, tally, WATCHED.length, watch.where);
    }
  } finally {
    watch.stop();
    for (const consumer of consumers) consumer.subscription.close();
    await ms.close();
  }
}

/**
 * Looks at every consumer every few milliseconds while the link is up: one shown `online` past the bound after
 * its last value is a stale value shown as live, counted once until its next value.
 */
class StaleWatch {
  where = 'before the first round';
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly ms: MediaServer,
    private readonly consumers: readonly Consumer[],
    private readonly tally: Tally,
  ) {
    this.#timer = setInterval(() => this.#look(), LOOK_EVERY_MS);
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  #look(): void {
    if (this.ms.live.status !== 'online') return;
    const now = performance.now();
    for (const consumer of this.consumers) {
      if (consumer.shownLiveWhileStale || consumer.status !== 'online' || consumer.silentForMs(now) <= STALE_BOUND_MS) continue;
      consumer.shownLiveWhileStale = true;
      this.tally.staleShownLive++;
      this.tally.finding(`a value was shown online ${(consumer.silentForMs(now) / 1000).toFixed(1)} s after its last one (${this.where})`);
    }
  }
}

/**
 * The director holds one subscription per value the client watches, whatever probes went before (a probe caught
 * between its unsubscribe and its subscribe is given a moment).
 */
export async function checkOnePerPair(target: FieldTarget, tally: Tally, pairs: number, where: string): Promise<void> {
  const holds = (): boolean => {
    const live = target.live();
    return live.sockets === 1 && live.subscriptions === pairs && live.references === pairs;
  };
  if (await waitUntil(holds, 2000)) return;
  const live = target.live();
  tally.finding(`the director holds ${live.subscriptions} subscriptions (${live.references} subscribe requests) on ${live.sockets} sockets for ${pairs} values watched (${where})`);
}

function pickSome(random: Random, patterns: readonly string[]): string[] {
  const some = patterns.filter(() => random.chance(0.4));
  return some.length > 0 ? some : [random.pick(patterns)];
}
