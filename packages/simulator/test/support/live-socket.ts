import WebSocket from 'ws';

/** A frame as it arrived, with when (performance.now()) and in which order. */
export interface Arrival {
  at: number;
  frame: Record<string, unknown>;
}

interface ListEntry {
  id: number;
  objectPath: string;
  propertyPath: string;
}

export const LOCAL_FPS = 'subsystem:MonitoringManager.findLocalMonitor("fps")';
export const LOCAL_CPU = 'subsystem:MonitoringManager.findLocalMonitor("CPU")';
export const AVERAGE = 'object.seriesAverage("Actual", 1)';
export const CPU_AVERAGE = 'object.seriesAverage("Total", 1)';
/** The transport "main" as every dialect names it on the stream (the documents' quoted form is not r34's). */
export const MAIN_BRIGHTNESS = ['transportmanager:main', 'object.brightness'] as const;

/** Polls `check` every 10 ms for up to `ms`, then throws naming what did not happen. */
export async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!check() && performance.now() < deadline) await pause(10);
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A live-update socket to the simulator that records every frame with its arrival time. */
export async function openLiveSocket(mediaServerUrl: string) {
  const socket = new WebSocket(`${mediaServerUrl.replace('http', 'ws')}/api/session/liveupdate`);
  const arrivals: Arrival[] = [];
  socket.on('message', (data: Buffer) => arrivals.push({ at: performance.now(), frame: JSON.parse(data.toString('utf8')) as Record<string, unknown> }));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const listOf = (arrival: Arrival) => (arrival.frame['subscriptions'] as ListEntry[] | undefined) ?? [];
  const changesOf = (arrival: Arrival) => (arrival.frame['valuesChanged'] as { id: number; value: unknown }[] | undefined) ?? [];
  return {
    socket,
    arrivals,
    /** The first arrival (from the `from`-th on) whose list names the pair, and the id it gives it. */
    listing(object: string, property: string, from = 0): { arrival: Arrival; id: number } | undefined {
      for (const arrival of arrivals.slice(from)) {
        const entry = listOf(arrival).find((candidate) => candidate.objectPath === object && candidate.propertyPath === property);
        if (entry) return { arrival, id: entry.id };
      }
      return undefined;
    },
    /** Every value of an id, with its arrival. */
    valuesOf: (id: number) => arrivals.flatMap((arrival) => changesOf(arrival).filter((change) => change.id === id).map((change) => ({ arrival, value: change.value }))),
    errors: () => arrivals.filter((arrival) => typeof arrival.frame['error'] === 'string'),
    subscribe(object: string, property: string, updateFrequencyMs = 50) {
      socket.send(JSON.stringify({ subscribe: { object, properties: [property], configuration: { updateFrequencyMs } } }));
    },
    unsubscribe: (id: number) => socket.send(JSON.stringify({ unsubscribe: { ids: [id] } })),
    close: () => socket.close(),
  };
}

export type LiveSocket = Awaited<ReturnType<typeof openLiveSocket>>;

/** Unsubscribes and waits for the list that no longer names the id: a paced client's next frame may follow. */
export async function unsubscribed(live: LiveSocket, id: number): Promise<void> {
  const before = live.arrivals.length;
  live.unsubscribe(id);
  const listsWithout = () => live.arrivals.slice(before).some((arrival) => Array.isArray(arrival.frame['subscriptions']) && !(arrival.frame['subscriptions'] as ListEntry[]).some((entry) => entry.id === id));
  await until(listsWithout, `the list without subscription ${id}`);
}

/** Subscribes and waits for the list that acknowledges the pair; answers its id. */
export async function acknowledged(live: LiveSocket, object: string, property: string, updateFrequencyMs = 50): Promise<number> {
  const before = live.arrivals.length;
  live.subscribe(object, property, updateFrequencyMs);
  await until(() => live.listing(object, property, before) !== undefined, `the list acknowledging ${object} / ${property}`);
  return live.listing(object, property, before)?.id ?? -1;
}
