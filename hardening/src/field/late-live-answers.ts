import { livePresets, MediaServer, type LiveRequest, type LiveSubscription } from '@stagelink/core';
import type { Random } from '../gen/random.js';
import { brief } from '../report/clear-error.js';
import type { Tally } from '../report/tally.js';
import { waitUntil } from '../support/time.js';
import { SHORT_LIVENESS } from './silent-subscriptions.js';
import type { FieldTarget } from './target.js';

const VALUES: readonly LiveRequest[] = [livePresets.localFps(), livePresets.cpu(), livePresets.gpuMemory(), livePresets.processMemory()];
/**
 * How long after the late answers the values and refusals must all have arrived: generous, as each subscribe waits
 * for the late answer before it, which takes seconds on a busy machine.
 */
const SETTLE_MS = 15_000;
const RELEASE_MS = 5000;

/** A subscription and what reached it. */
interface Watched {
  name: string;
  refused: boolean;
  subscription: LiveSubscription;
  values: number;
  errors: string[];
}

/**
 * Subscriptions made while the director answers every `subscriptions` list and error late (`lateLiveAnswers` with
 * a random delay), some of them to monitors that do not exist, in a random order on one socket. Each refusal must
 * reach only the subscription it names; every other subscription gets values and no error, and ends `online`;
 * the socket is released when they close.
 */
export async function lateLiveAnswers(target: FieldTarget, random: Random, rounds: number, tally: Tally): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    const lateMs = random.integer(100, 1500);
    const where = `lateLiveAnswers ${lateMs} ms (seed ${random.seed}, round ${round + 1})`;
    await target.control({ action: 'lateLiveAnswers', ms: lateMs });
    const ms = new MediaServer({ host: target.url, live: SHORT_LIVENESS });
    try {
      const watched = shuffled(random, [
        ...VALUES.filter(() => random.chance(0.7)).map((request) => ({ name: request.object, refused: false, request })),
        ...Array.from({ length: random.integer(1, 3) }, (_, index) => {
          const name = `NoSuchMonitor${round}x${index}`;
          return { name, refused: true, request: { object: `subsystem:MonitoringManager.findLocalMonitor(${JSON.stringify(name)})`, properties: ['object.seriesAverage("Actual", 1)'], updateFrequencyMs: 100 } };
        }),
      ]).map(({ name, refused, request }) => watch(ms, name, refused, request));
      const settled = await waitUntil(() => watched.every((one) => (one.refused ? one.errors.length > 0 : one.values > 0 && one.subscription.status === 'online')), lateMs + SETTLE_MS);
      for (const one of watched) check(one, watched, tally, where, settled === true);
      for (const one of watched) one.subscription.close();
    } finally {
      await ms.close();
    }
    const released = await waitUntil(() => target.live().sockets === 0, RELEASE_MS);
    if (!released) {
      tally.leakedSockets += target.live().sockets;
      tally.finding(`${target.live().sockets} live sockets still open ${RELEASE_MS / 1000} s after the client closed (${where})`);
    }
  }
  await target.control({ action: 'lateLiveAnswers', ms: 0 });
}

function watch(ms: MediaServer, name: string, refused: boolean, request: LiveRequest): Watched {
  const watched: Watched = { name, refused, values: 0, errors: [], subscription: undefined as unknown as LiveSubscription };
  watched.subscription = ms.live.subscribe(request, () => watched.values++, { onError: (error) => watched.errors.push(error.message) });
  return watched;
}

function check(one: Watched, all: readonly Watched[], tally: Tally, where: string, settled: boolean): void {
  tally.inputs++;
  const others = all.filter((other) => other.refused && other !== one).map((other) => other.name);
  const misplaced = one.errors.find((message) => others.some((name) => message.includes(name)) || (one.refused && !message.includes(one.name)));
  if (misplaced !== undefined) {
    tally.finding(`a refusal reached the wrong subscription (${one.name}): ${brief(misplaced)} (${where})`);
    return;
  }
  if (one.refused) {
    if (tally.expect(one.errors.length > 0, `the subscription to ${one.name} was never told it was refused (${where})`)) tally.errors++;
    return;
  }
  if (!tally.expect(one.errors.length === 0, `${one.name} was told of an error while its values came: ${brief(one.errors[0] ?? '')} (${where})`)) return;
  if (tally.expect(settled || (one.values > 0 && one.subscription.status === 'online'), `${one.name}: ${one.values} values, ${one.subscription.status}, ${SETTLE_MS / 1000} s after the late answers (${where})`)) tally.ok++;
}

function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let index = out.length - 1; index > 0; index--) {
    const other = random.integer(0, index);
    [out[index], out[other]] = [out[other] as T, out[index] as T];
  }
  return out;
}
