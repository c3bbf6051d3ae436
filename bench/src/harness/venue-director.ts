import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientFrame, ServerFrame, SubscriptionEntry } from '@stagelink/core/protocol';
import type { WebSocket } from 'ws';
import { startSimulatorFront, type SimulatorFront } from './simulator-front.js';

/**
 * A director of a venue-sized session in front of a simulator: `status/session` and `status/health` answer for
 * `machines` machines (the simulator's `session` scenario has four), and the live-update stream serves every
 * machine's FPS at the interval each subscription asks for. Every other request goes to the simulator unchanged,
 * so cues land on its real transports. FPS values carry the time they were made (see `fpsValueAt`), so a consumer
 * anywhere on this machine can tell how long a value took to reach it.
 */
export interface VenueDirector {
  url: string;
  /** The director's hostname first. */
  hostnames: string[];
  stats(): DirectorStats;
  /** Told the time of every request as it arrives (method and path), e.g. to time cues. */
  onRequest: ((method: string, path: string, at: number) => void) | undefined;
  close(): Promise<void>;
}

export interface DirectorStats {
  /** Live-update sockets open now. */
  sockets: number;
  /** Live subscriptions held over all sockets. */
  subscriptions: number;
  /** Health reads answered so far. */
  healthReads: number;
  /** HTTP requests answered so far. */
  requests: number;
  /** FPS values sent so far, over every socket. */
  valuesSent: number;
}

/** An FPS value between 50 and 60 whose decimals are the time it was made, in ms modulo 10 s. */
export function fpsValueAt(nowMs: number): number {
  return Number((50 + (nowMs % 10_000) / 1000).toFixed(3));
}

/** How long ago (ms) a value made by fpsValueAt was made; good for delays under 10 s. */
export function fpsValueAge(value: number, nowMs: number): number {
  const made = Math.round((value - 50) * 1000);
  const age = (nowMs % 10_000) - made;
  return age < 0 ? age + 10_000 : age;
}

export async function startVenueDirector(upstreamUrl: string, machines: number): Promise<VenueDirector> {
  const hostnames = ['venue-director', ...Array.from({ length: machines - 1 }, (_, index) => `machine-${String(index + 2).padStart(2, '0')}`)];
  const uids = hostnames.map((_, index) => String(1_000_000_000_000 + index));
  const counts = { healthReads: 0, requests: 0, valuesSent: 0 };
  const machine = (index: number, type: string) => ({ uid: uids[index], name: hostnames[index], hostname: hostnames[index], type, guiMode: 'normal', guiVisible: true });
  const sessionAnswer = () => ({
    isRunningSolo: false,
    isDirectorDedicated: true,
    director: machine(0, 'director'),
    actors: hostnames.slice(1, -1).map((_, index) => machine(index + 1, 'actor')),
    understudies: [machine(hostnames.length - 1, 'understudy')],
  });
  // Every read reports the time it was made in a state's detail: each machine's health changes every read, as
  // a venue's would at worst, so the bridge publishes every machine's health every poll.
  const healthAnswer = () =>
    hostnames.map((hostname, index) => {
      const ref = { uid: uids[index], name: hostname, hostname };
      const state = (name: string, detail: string) => ({ name, detail, category: name, severity: 'ok' });
      return {
        machine: ref,
        runningAsMachine: ref,
        status: {
          averageFPS: 59.94,
          videoDroppedFrames: 0,
          videoMissedFrames: 0,
          states: [state('Connection', `Connected (checked ${counts.healthReads})`), state('Output', 'All outputs running'), state('Genlock', 'Locked'), state('Devices', 'All devices responding')],
        },
      };
    });
  const answerRequest = (request: IncomingMessage, response: ServerResponse): boolean => {
    counts.requests++;
    director.onRequest?.(request.method ?? 'GET', request.url ?? '/', performance.now());
    const path = new URL(request.url ?? '/', 'http://director').pathname;
    if (path === '/api/session/status/session') return answer(response, sessionAnswer());
    if (path === '/api/session/status/health') {
      counts.healthReads++;
      return answer(response, healthAnswer());
    }
    return false;
  };
  // Consumers that poll every few seconds keep their connection instead of reconnecting for every read.
  const front: SimulatorFront<LiveSession> = await startSimulatorFront(upstreamUrl, {
    openSession: (ws) => new LiveSession(ws, counts),
    answer: answerRequest,
    keepAliveMs: 60_000,
  });
  const director: VenueDirector = {
    url: front.url,
    hostnames,
    onRequest: undefined,
    stats: () => ({
      sockets: front.sessions.size,
      subscriptions: [...front.sessions].reduce((sum, session) => sum + session.size, 0),
      healthReads: counts.healthReads,
      requests: counts.requests,
      valuesSent: counts.valuesSent,
    }),
    close: () => front.close(),
  };
  return director;
}

/** Answers as the director does, from `result`; true, as the request needs nothing more. */
function answer(response: ServerResponse, result: unknown): true {
  const body = JSON.stringify({ status: { code: 0, message: '', details: [] }, result });
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
  return true;
}

const FPS_OBJECT = /^subsystem:MonitoringManager\.find(?:LocalMonitor\("fps"\)|RemoteMonitor\("[^"]+:svc", "fps"\))$/;

/** One live-update socket: subscriptions, their replies, and FPS values at each subscription's interval. */
class LiveSession {
  readonly #subscriptions = new Map<string, SubscriptionEntry & { timer?: NodeJS.Timeout }>();
  #nextId = 0;

  constructor(
    private readonly socket: WebSocket,
    private readonly counts: { valuesSent: number },
  ) {
    socket.on('message', (data: Buffer) => this.#receive(JSON.parse(data.toString('utf8')) as ClientFrame));
    socket.on('close', () => this.#stopTimers());
  }

  get size(): number {
    return this.#subscriptions.size;
  }

  close(): void {
    this.#stopTimers();
    this.socket.terminate();
  }

  #stopTimers(): void {
    for (const entry of this.#subscriptions.values()) clearInterval(entry.timer);
  }

  #receive(frame: ClientFrame): void {
    if ('subscribe' in frame) {
      const { object, properties, configuration } = frame.subscribe;
      for (const property of properties) this.#subscribe(object, property, configuration?.updateFrequencyMs ?? 100);
    } else if ('unsubscribe' in frame) {
      const ids = 'ids' in frame.unsubscribe ? frame.unsubscribe.ids : [frame.unsubscribe.id];
      for (const [key, entry] of this.#subscriptions) {
        if (!ids.includes(entry.id)) continue;
        clearInterval(entry.timer);
        this.#subscriptions.delete(key);
      }
      this.#send({ subscriptions: this.#list() });
    }
  }

  #subscribe(objectPath: string, propertyPath: string, intervalMs: number): void {
    const isFps = FPS_OBJECT.test(objectPath);
    const known = isFps || objectPath === 'subsystem:MonitoringManager' || objectPath.startsWith('getByUID(');
    if (!known) {
      this.#send({ error: `Unable to subscribe to ${objectPath} / ${propertyPath} - Unable to find object` });
      return;
    }
    const key = `${objectPath}\u0000${propertyPath}`;
    let entry = this.#subscriptions.get(key);
    if (!entry) {
      entry = { id: this.#nextId++, objectPath, propertyPath };
      this.#subscriptions.set(key, entry);
    }
    this.#send({ subscriptions: this.#list() });
    const { id } = entry;
    if (isFps) {
      this.#sendFps(id);
      entry.timer ??= setInterval(() => this.#sendFps(id), Math.max(intervalMs, 16));
    } else if (propertyPath === 'object.remoteNodes()') {
      // As the API documents' directors answer: no such list, so clients use `<hostname>:svc`.
      this.#send({ valuesChanged: [{ id, value: { errorType: 'propertyPathError', message: 'remoteNodes is not a property of MonitoringManager' } }] });
    } else {
      this.#send({ valuesChanged: [{ id, value: false }] });
    }
  }

  #sendFps(id: number): void {
    const now = Date.now();
    this.counts.valuesSent++;
    this.#send({ valuesChanged: [{ id, value: fpsValueAt(now), changeTimestamp: now / 1000, messageTimestamp: now / 1000 }] });
  }

  #list(): SubscriptionEntry[] {
    return [...this.#subscriptions.values()].map(({ id, objectPath, propertyPath }) => ({ id, objectPath, propertyPath }));
  }

  #send(frame: ServerFrame): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(frame));
  }
}
