import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LIVE_UPDATE_PATH, type ClientFrame, type ServerFrame, type SubscriptionEntry } from '@stagelink/core/protocol';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * Stands in front of a simulator to feed live values faster than a client asks for them: every live-update
 * socket gets all its subscriptions' values `rateHz` times a second, whatever `updateFrequencyMs` it sent (the
 * simulator honours the interval, and the Stream Deck FPS keys ask for 100 ms). Every other request is passed
 * to the simulator unchanged, so REST calls and director discovery work as against the simulator itself.
 */
export interface FastLiveFeed {
  url: string;
  /** Values sent so far, over every socket. */
  readonly valuesSent: number;
  close(): Promise<void>;
}

export async function startFastLiveFeed(upstreamUrl: string, rateHz: number): Promise<FastLiveFeed> {
  const upstream = new URL(upstreamUrl);
  const sessions = new Set<FeedSession>();
  const sent = { values: 0 };
  const server = createServer((request, response) => forward(upstream, request, response));
  const sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  server.on('upgrade', (request: IncomingMessage, socket, head) => {
    if (new URL(request.url ?? '/', 'http://feed').pathname !== LIVE_UPDATE_PATH) {
      socket.destroy();
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const session = new FeedSession(ws, 1000 / rateHz, sent);
      sessions.add(session);
      ws.on('close', () => sessions.delete(session));
    });
  });
  const url = await listen(server);
  return {
    url,
    get valuesSent() {
      return sent.values;
    },
    close: async () => {
      for (const session of sessions) session.close();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function forward(upstream: URL, request: IncomingMessage, response: ServerResponse): void {
  const headers = { ...request.headers, host: upstream.host };
  const options = { host: upstream.hostname, port: upstream.port, path: request.url, method: request.method, headers };
  const forwarded = httpRequest(options, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(response);
  });
  forwarded.on('error', () => {
    if (!response.headersSent) response.writeHead(502);
    response.end();
  });
  request.pipe(forwarded);
}

/** One live-update socket: the protocol's subscribe and unsubscribe replies, and values at a fixed rate. */
class FeedSession {
  readonly #subscriptions = new Map<string, SubscriptionEntry>();
  readonly #timer: NodeJS.Timeout;
  #nextId = 0;

  constructor(
    private readonly socket: WebSocket,
    periodMs: number,
    private readonly sent: { values: number },
  ) {
    socket.on('message', (data: Buffer) => this.#receive(JSON.parse(data.toString('utf8')) as ClientFrame));
    socket.on('close', () => clearInterval(this.#timer));
    this.#timer = setInterval(() => this.#sendValues([...this.#subscriptions.values()]), periodMs);
  }

  close(): void {
    clearInterval(this.#timer);
    this.socket.terminate();
  }

  #receive(frame: ClientFrame): void {
    if ('subscribe' in frame) {
      const { object, properties } = frame.subscribe;
      const added = properties.map((property) => this.#entry(object, property));
      this.#send({ subscriptions: [...this.#subscriptions.values()] });
      this.#sendValues(added);
    } else if ('unsubscribe' in frame) {
      const ids = 'ids' in frame.unsubscribe ? frame.unsubscribe.ids : [frame.unsubscribe.id];
      for (const [key, entry] of this.#subscriptions) if (ids.includes(entry.id)) this.#subscriptions.delete(key);
      this.#send({ subscriptions: [...this.#subscriptions.values()] });
    }
  }

  #entry(objectPath: string, propertyPath: string): SubscriptionEntry {
    const key = `${objectPath}\u0000${propertyPath}`;
    const entry = this.#subscriptions.get(key) ?? { id: this.#nextId++, objectPath, propertyPath };
    this.#subscriptions.set(key, entry);
    return entry;
  }

  /** Frame rates near 59.94 that change with every frame, so no frame repeats the one before. */
  #sendValues(entries: SubscriptionEntry[]): void {
    if (entries.length === 0) return;
    const now = Date.now() / 1000;
    const valuesChanged = entries.map(({ id }) => ({ id, value: Math.round((59.94 - Math.random() * 0.6) * 100) / 100, changeTimestamp: now, messageTimestamp: now }));
    this.sent.values += valuesChanged.length;
    this.#send({ valuesChanged });
  }

  #send(frame: ServerFrame): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(frame));
  }
}
