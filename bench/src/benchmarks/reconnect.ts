import { EventEmitter, once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { MediaServer, type LiveStatus } from '@stagelink/core';
import { millis } from '../harness/format.js';
import { atMost, type Benchmark, type ResultRow } from '../harness/report.js';
import { startSimulatorProcess, type SimulatorProcess } from '../harness/simulator-process.js';
import { stablePort } from '../harness/stable-port.js';
import { median, quantile } from '../harness/stats.js';

/** How long the server stays away before it is started again (its own start-up time comes on top), and how often. */
const OUTAGES = [
  { outageMs: 1000, repeats: 7 },
  { outageMs: 5000, repeats: 5 },
] as const;
/** "About a second or less": a median up to 1.2 s counts as about a second. */
const LIMIT_MS = 1200;
/**
 * How long the connection is left open before each stop. Core ends an outage only after a connection stayed open
 * 5 s; a server that goes away sooner continues the same outage, whose waits grow after its first minute.
 */
const SETTLE_MS = 5500;
/** Longer than core's back-off cap (30 s): a value that has not come by then is not coming. */
const VALUE_TIMEOUT_MS = 40_000;

/**
 * One restart, in ms: how long the server was down, how soon the subscription said offline, and from the moment
 * the new server listened, when the socket was open again (the back-off wait plus connecting) and when the first
 * value came (plus subscribing).
 */
interface Restart {
  outageMs: number;
  downMs: number;
  offlineAfterMs: number;
  onlineAfterMs: number;
  firstValueAfterMs: number;
}

export const reconnect: Benchmark = {
  id: 'reconnect',
  name: 'reconnect',
  subject: 'core live update, one `localFps` subscription, simulator process stopped (SIGTERM) and started again',
  baseline: '-',
  async run(log) {
    const first = await startSimulatorProcess(await stablePort());
    const server = { current: first };
    const mediaServer = new MediaServer({ host: first.mediaServerUrl });
    const watcher = new LiveWatcher(mediaServer);
    try {
      await watcher.valueAfter(0);
      const restarts: Restart[] = [];
      for (const { outageMs, repeats } of OUTAGES) {
        log(`${repeats} restarts after ${outageMs / 1000} s away`);
        for (let repeat = 0; repeat < repeats; repeat++) restarts.push(await restartOnce(server, first.port, outageMs, watcher));
      }
      return { rows: rows(restarts), details: { restarts } };
    } finally {
      await mediaServer.close();
      await server.current.stop();
    }
  },
};

async function restartOnce(server: { current: SimulatorProcess }, port: number, outageMs: number, watcher: LiveWatcher): Promise<Restart> {
  await delay(SETTLE_MS);
  const offline = awaitedLater(watcher.status('offline'));
  const stopping = performance.now();
  await server.current.stop();
  const stopped = performance.now();
  const offlineAt = await offline;
  const online = awaitedLater(watcher.status('online'));
  await delay(outageMs);
  server.current = await startSimulatorProcess(port);
  const listening = performance.now();
  const [onlineAt, valueAt] = await Promise.all([online, watcher.valueAfter(stopped)]);
  return {
    outageMs,
    downMs: listening - stopped,
    offlineAfterMs: offlineAt - stopping,
    onlineAfterMs: onlineAt - listening,
    firstValueAfterMs: valueAt - listening,
  };
}

/** A promise awaited only after other steps: if one of them throws first, its rejection must not go unhandled. */
function awaitedLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

function rows(restarts: Restart[]): ResultRow[] {
  const byOutage = OUTAGES.map(({ outageMs }) => restarts.filter((restart) => restart.outageMs === outageMs));
  const valueRows = byOutage.map((group): ResultRow => {
    const times = group.map((restart) => restart.firstValueAfterMs);
    const waiting = median(group.map((restart) => restart.onlineAfterMs));
    const down = median(group.map((restart) => restart.downMs));
    return {
      case: `server down ${(down / 1000).toFixed(1)} s: first value`,
      subject: `${millis(median(times))} (p90 ${millis(quantile(times, 0.9))})`,
      baseline: '-',
      target: 'median about 1 s or less',
      verdict: atMost(median(times), LIMIT_MS),
      note: `${millis(waiting)} of it before the socket was open again`,
    };
  });
  const offline = restarts.map((restart) => restart.offlineAfterMs);
  const offlineRow: ResultRow = {
    case: 'marked offline after the stop began',
    subject: `${millis(median(offline))} (max ${millis(Math.max(...offline))})`,
    baseline: '-',
    target: 'nothing stays live while offline',
    verdict: 'reported',
  };
  return [...valueRows, offlineRow];
}

/** The times values and status changes of one live subscription arrived. */
class LiveWatcher {
  readonly #events = new EventEmitter<{ value: [number]; status: [LiveStatus, number] }>();
  #lastValueAt = Number.NEGATIVE_INFINITY;

  constructor(mediaServer: MediaServer) {
    mediaServer.live.subscribe(
      mediaServer.live.presets.localFps(),
      () => {
        this.#lastValueAt = performance.now();
        this.#events.emit('value', this.#lastValueAt);
      },
      { onStatus: (status) => this.#events.emit('status', status, performance.now()) },
    );
  }

  /** When the first value later than `time` arrived (at once if one already has). */
  async valueAfter(time: number): Promise<number> {
    if (this.#lastValueAt > time) return this.#lastValueAt;
    const [at] = (await once(this.#events, 'value', { signal: AbortSignal.timeout(VALUE_TIMEOUT_MS) })) as [number];
    return at;
  }

  /** When the subscription is next told `status`. */
  async status(status: LiveStatus): Promise<number> {
    for (;;) {
      const [told, at] = (await once(this.#events, 'status', { signal: AbortSignal.timeout(VALUE_TIMEOUT_MS) })) as [LiveStatus, number];
      if (told === status) return at;
    }
  }
}
