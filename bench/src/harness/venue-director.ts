import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LIVE_UPDATE_PATH, type ClientFrame, type ServerFrame, type SubscriptionEntry } from '@stagelink/core/protocol';
import { WebSocketServer, type WebSocket } from 'ws';

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
  const upstream = new URL(upstreamUrl);
  const hostnames = ['venue-director', ...Array.from({ length: machines - 1 }, (_, index) => `machine-${String(index + 2).padStart(2, '0')}`)];
  const uids = hostnames.map((_, index) => String(1_000_000_000_000 + index));
  const counts = { healthReads: 0, requests: 0, valuesSent: 0 };
  const sessions = new Set<LiveSession>();
  const director: VenueDirector = {
    url: '',
    hostnames,
    onRequest: undefined,
    stats: () => ({
      sockets: sessions.size,
      subscriptions: [...sessions].reduce((sum, session) => sum + session.size, 0),
      healthReads: counts.healthReads,
      requests: counts.requests,
      valuesSent: counts.valuesSent,
    }),
    close: async () => {
      for (const session of sessions) session.close();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
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
  const server = createServer((request, response) => {
    counts.requests++;
    director.onRequest?.(request.method ?? 'GET', request.url ?? '/', performance.now());
    const path = new URL(request.url ?? '/', 'http://director').pathname;
    if (path === '/api/session/status/session') return answer(response, sessionAnswer());
    if (path === '/api/session/status/health') {
      counts.healthReads++;
      return answer(response, healthAnswer());
    }
    forward(upstream, request, response);
  });
  server.keepAliveTimeout = 60_000;
  const sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  server.on('upgrade', (request: IncomingMessage, socket, head) => {
    if (new URL(request.url ?? '/', 'http://director').pathname !== LIVE_UPDATE_PATH) {
      socket.destroy();
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const session = new LiveSession(ws, counts);
      sessions.add(session);
      ws.on('close', () => sessions.delete(session));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  director.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return director;
}

function answer(response: ServerResponse, result: unknown): void {
  const body = JSON.stringify({ status: { code: 0, message: '', details: [] }, result });
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

function forward(upstream: URL, request: IncomingMessage, response: ServerResponse): void {
  const headers = { ...request.headers, host: upstream.host };
  const options = { host: upstream.hostname, port: upstream.port, path: request.url, method: request.method, headers };
  const forwarded = httpRequest(options, (reply) => {
    response.writeHead(reply.statusCode ?? 502, reply.headers);
    reply.pipe(response);
  });
  forwarded.on('error', () => {
    if (!response.headersSent) response.writeHead(502);
    response.end();
  });
  request.pipe(forwarded);
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
