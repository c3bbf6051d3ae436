import { startSimulator, type LogEntry, type SentValue, type Simulator } from '@stagelink/simulator';
import { sharedNow, type SentLog } from './value-matching.js';

/**
 * The simulator's `venue` scenario in this process: one r34 director of a venue-sized session, answering health
 * and session for every machine and serving their FPS as remote monitors. It keeps, per machine, every FPS value
 * it sends and when (on the clock every process here shares), so subscribers elsewhere can work out how long
 * each value took to reach them; and counts the requests it answers.
 */
export interface VenueSimulator {
  url: string;
  /** The director's hostname first. */
  hostnames: string[];
  stats(): VenueStats;
  /**
   * The FPS values sent since `since` (shared clock), by machine hostname; values asked with another spelling of
   * the property under `<hostname>#<property>`.
   */
  sentSince(since: number): Record<string, SentLog>;
  /** Told every request as it is answered (method, path, shared clock), e.g. to time cues. */
  onRequest: ((method: string, path: string, at: number) => void) | undefined;
  close(): Promise<void>;
}

export interface VenueStats {
  /** Live-update sockets open now. */
  sockets: number;
  /** Server subscriptions over every socket. */
  subscriptions: number;
  /** `status/health` reads answered so far. */
  healthReads: number;
  /** FPS values sent so far, over every socket. */
  fpsSent: number;
}

const HEALTH_PATH = '/api/session/status/health';
/** The property core (and so the bridge) asks every FPS monitor for. */
export const FPS_PROPERTY = 'object.seriesAverage("Actual", 1)';
const LOCAL_FPS = 'subsystem:MonitoringManager.findLocalMonitor("fps")';
const REMOTE_FPS = /^subsystem:MonitoringManager\.findRemoteMonitor\("([^":]+):[^"]*",\s*"fps"\)$/;
/** The log of sends is kept this long: a window and its drain, with room to spare. */
const KEEP_MS = 60_000;

export async function startVenueSimulator(machines: number): Promise<VenueSimulator> {
  const counts = { healthReads: 0, fpsSent: 0 };
  const watchers: Pick<VenueSimulator, 'onRequest'> = { onRequest: undefined };
  const log = (entry: LogEntry): void => {
    if (entry.event !== 'request') return;
    const text = (key: string) => (typeof entry[key] === 'string' ? entry[key] : '');
    if (text('path').startsWith(HEALTH_PATH)) counts.healthReads++;
    watchers.onRequest?.(text('method'), text('path'), sharedNow());
  };
  const sim: Simulator = await startSimulator({ scenario: 'venue', machines, dialect: 'r34', seed: 1, port: 0, drivePort: 0, log });
  const hostnames = sim.state.machines.hostnames();
  const [director = ''] = hostnames;
  const sent = new Map<string, SentLog>(hostnames.map((hostname) => [hostname, { at: [], values: [] }]));
  const stopListening = sim.live.onValueSent((change) => {
    const hostname = fpsHostname(change, director);
    // A consumer that asks with another spelling of the property (a baseline beside the bridge) is logged apart.
    const key = hostname === undefined || change.property === FPS_PROPERTY ? hostname : `${hostname}#${change.property}`;
    if (key !== undefined && !sent.has(key) && hostname !== undefined) sent.set(key, { at: [], values: [] });
    const entry = key === undefined ? undefined : sent.get(key);
    if (!entry || typeof change.value !== 'number') return;
    counts.fpsSent++;
    entry.at.push(sharedNow());
    entry.values.push(change.value);
  });
  // Old sends are dropped now and then, so a long run does not grow without bound.
  const pruning = setInterval(() => {
    for (const entry of sent.values()) trimBefore(entry, sharedNow() - KEEP_MS);
  }, 10_000);
  return {
    url: sim.mediaServer.url,
    hostnames,
    get onRequest() {
      return watchers.onRequest;
    },
    set onRequest(listener) {
      watchers.onRequest = listener;
    },
    stats: () => {
      const live = sim.live.stats();
      return { sockets: live.sockets, subscriptions: live.subscriptions, healthReads: counts.healthReads, fpsSent: counts.fpsSent };
    },
    sentSince: (since) => Object.fromEntries([...sent].map(([hostname, entry]) => [hostname, sliceFrom(entry, since)])),
    close: async () => {
      clearInterval(pruning);
      stopListening();
      await sim.close();
    },
  };
}

/** Which machine's FPS a sent value is: the director's local monitor, or another machine's remote monitor. */
function fpsHostname({ object }: SentValue, director: string): string | undefined {
  if (object === LOCAL_FPS) return director;
  return REMOTE_FPS.exec(object)?.[1];
}

function firstAtOrAfter(entry: SentLog, since: number): number {
  const index = entry.at.findIndex((at) => at >= since);
  return index < 0 ? entry.at.length : index;
}

function sliceFrom(entry: SentLog, since: number): SentLog {
  const from = firstAtOrAfter(entry, since);
  return { at: entry.at.slice(from), values: entry.values.slice(from) };
}

function trimBefore(entry: SentLog, before: number): void {
  const from = firstAtOrAfter(entry, before);
  entry.at.splice(0, from);
  entry.values.splice(0, from);
}
