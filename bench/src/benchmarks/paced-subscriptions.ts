import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { MediaServer, type LiveRequest, type LiveSubscription } from '@stagelink/core';
import { simControl } from '@stagelink/simulator';
import { millis } from '../harness/format.js';
import { notRun, type Benchmark, type ResultRow } from '../harness/report.js';
import { median, p99 } from '../harness/stats.js';
import { startVenueSimulator } from '../harness/venue-simulator.js';

/** 20 machines' FPS and CPU: the 40 subscriptions a desk brings up at start and again after every drop. */
const MACHINES = 21;
const ROUNDS = 8;
/** Far beyond what 40 answered subscribes take; a round that runs out is a failure, not a slow sample. */
const ROUND_TIMEOUT_MS = 30_000;

/**
 * How long 40 live subscriptions take to come up whole through core's pacing (one subscribe in flight, the next
 * on its answer) against an r34 director that drops frames sent back to back: from a cold start, and after the
 * director drops the socket. Reported: the pacing's cost, against which nothing is lost.
 */
export const pacedSubscriptions: Benchmark = {
  id: 'paced-subscriptions',
  name: 'paced subscriptions',
  subject: 'core live update, 40 subscriptions (20 machines: FPS and CPU) against the r34 venue director, every frame paced',
  baseline: '-',
  async run(log) {
    const venue = await startVenueSimulator(MACHINES);
    try {
      const requests = venue.hostnames.slice(1).flatMap((hostname) => [monitor(hostname, 'fps', 'Actual'), monitor(hostname, 'CPU', 'Total')]);
      const cold: number[] = [];
      const afterDrop: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        log(`round ${round + 1}/${ROUNDS}`);
        const ms = new MediaServer({ host: venue.url });
        try {
          const watched = watchAll(ms, requests);
          let started = performance.now();
          await watched.allValues();
          cold.push(performance.now() - started);
          started = performance.now();
          const offline = once(ms.live, 'status');
          await simControl(venue.url, { action: 'dropSockets' });
          await offline;
          // Values already on their way from the old socket do not count.
          watched.forgetValues();
          await watched.allValues();
          afterDrop.push(performance.now() - started);
          watched.close();
        } finally {
          await ms.close();
        }
        await delay(200);
      }
      return { rows: [row('from a cold start', cold), row('after the director dropped the socket', afterDrop)], details: { coldMs: cold, afterDropMs: afterDrop } };
    } catch (error) {
      return { rows: [notRun('all', 'reported', error instanceof Error ? error.message : String(error))], details: {} };
    } finally {
      await venue.close();
    }
  },
};

function monitor(hostname: string, name: string, series: string): LiveRequest {
  return {
    object: `subsystem:MonitoringManager.findRemoteMonitor(${JSON.stringify(`${hostname}:d3`)}, ${JSON.stringify(name)})`,
    properties: [`object.seriesAverage(${JSON.stringify(series)}, 1)`],
    updateFrequencyMs: 100,
  };
}

/** Subscribes every request; `allValues` resolves once each has had a value since the last `forgetValues`. */
function watchAll(ms: MediaServer, requests: readonly LiveRequest[]) {
  let valued = new Set<number>();
  let whenAll: (() => void) | undefined;
  const subscriptions: LiveSubscription[] = requests.map((request, index) =>
    ms.live.subscribe(request, () => {
      valued.add(index);
      if (valued.size === requests.length) whenAll?.();
    }),
  );
  return {
    forgetValues: () => (valued = new Set()),
    allValues: async (): Promise<void> => {
      if (valued.size === requests.length) return;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${valued.size} of ${requests.length} subscriptions had a value after ${ROUND_TIMEOUT_MS} ms`)), ROUND_TIMEOUT_MS);
        whenAll = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
    close: () => subscriptions.forEach((subscription) => subscription.close()),
  };
}

function row(caseName: string, samples: readonly number[]): ResultRow {
  return {
    case: `40 subscriptions up, ${caseName}: p50 / p99`,
    subject: `${millis(median(samples))} / ${millis(p99(samples))}`,
    baseline: '-',
    target: 'reported',
    verdict: 'reported',
    note: `${samples.length} rounds; one subscribe in flight, the next on its answer`,
  };
}
