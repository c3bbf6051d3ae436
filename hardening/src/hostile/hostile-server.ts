import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Random } from '../gen/random.js';
import { HTTP_ANSWERS, LIVE_FRAMES, type HostileAnswer } from './answers.js';

const LIVE_PATH = '/api/session/liveupdate';
/** What a client that follows the director asks first: who directs the session. */
const SESSION_PATH = '/api/session/status/session';

/**
 * A media server that only answers badly, on 127.0.0.1. Every HTTP request gets the next answer of a seeded
 * shuffle of HTTP_ANSWERS; the live-update endpoint echoes subscriptions (so they become active) and sends
 * the frames of LIVE_FRAMES in between. It remembers what it sent last, to name the culprit of a crash.
 */
export class HostileServer {
  readonly #server: Server;
  readonly #live = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  readonly #sockets = new Set<Socket>();
  readonly #liveSockets = new Set<WebSocket>();
  readonly #recent: string[] = [];
  #order: HostileAnswer[];
  #next = 0;
  #frameTimer: NodeJS.Timeout | undefined;
  #nextFrame = 0;
  requests = 0;
  upgrades = 0;
  framesSent = 0;
  /** Frames of `streamFrames` that went out on a live socket (not the answers to subscriptions). */
  framesStreamed = 0;

  private constructor(
    private readonly random: Random,
    readonly url: string,
    server: Server,
  ) {
    this.#server = server;
    this.#order = shuffled(HTTP_ANSWERS, random);
  }

  static async start(random: Random): Promise<HostileServer> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
    const hostile = new HostileServer(random, `http://127.0.0.1:${address.port}`, server);
    hostile.#wire();
    return hostile;
  }

  /** Live-update sockets open now (the client's one socket per server, or a leak). */
  get liveSockets(): number {
    return this.#liveSockets.size;
  }

  /** The last answers and frames sent, newest last. */
  recent(): string[] {
    return [...this.#recent];
  }

  /** Sends the frames of LIVE_FRAMES to every live socket, one every `everyMs`, until stopped. */
  streamFrames(everyMs: number): void {
    clearInterval(this.#frameTimer);
    this.#frameTimer = setInterval(() => {
      const frame = LIVE_FRAMES[this.#nextFrame++ % LIVE_FRAMES.length] ?? 'null';
      for (const socket of this.#liveSockets) {
        if (this.#sendFrame(socket, frame)) this.framesStreamed++;
      }
    }, everyMs);
  }

  stopFrames(): void {
    clearInterval(this.#frameTimer);
    this.#frameTimer = undefined;
  }

  async close(): Promise<void> {
    this.stopFrames();
    for (const socket of this.#liveSockets) socket.terminate();
    for (const socket of this.#sockets) socket.destroy();
    this.#live.close();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #wire(): void {
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
    this.#server.on('request', (request, response) => {
      this.requests++;
      request.resume();
      request.once('end', () => {
        const answer = this.#nextAnswer(request.url === SESSION_PATH);
        this.#remember(`${request.method ?? '?'} ${request.url ?? '?'} ← ${answer.name}`);
        try {
          answer.answer(request, response);
        } catch {
          response.socket?.destroy();
        }
      });
    });
    this.#server.on('upgrade', (request, socket, head) => {
      this.upgrades++;
      if (!request.url?.startsWith(LIVE_PATH)) {
        socket.destroy();
        return;
      }
      this.#live.handleUpgrade(request, socket, head, (ws) => this.#acceptLive(ws));
    });
  }

  #acceptLive(ws: WebSocket): void {
    this.#liveSockets.add(ws);
    ws.once('close', () => this.#liveSockets.delete(ws));
    ws.on('error', () => undefined);
    let id = 0;
    ws.on('message', (data: Buffer) => {
      const subscribe = parseSubscribe(data.toString('utf8'));
      if (!subscribe) return;
      // A real answer first, so the subscription is active and later value frames reach it.
      const entries = subscribe.properties.map((propertyPath) => ({ id: id++, objectPath: subscribe.object, propertyPath }));
      this.#sendFrame(ws, JSON.stringify({ subscriptions: entries }));
      this.#sendFrame(ws, JSON.stringify({ valuesChanged: entries.map((entry) => ({ id: entry.id, value: 59.94 })) }));
      this.#sendFrame(ws, this.random.pick(LIVE_FRAMES));
    });
  }

  /** Sends one frame if the socket is open; true when it went out. */
  #sendFrame(ws: WebSocket, frame: string | Buffer): boolean {
    if (ws.readyState !== ws.OPEN) return false;
    this.framesSent++;
    this.#remember(`frame ${typeof frame === 'string' ? frame.slice(0, 60) : `<binary ${frame.length} bytes>`}`);
    ws.send(frame);
    return true;
  }

  /** The next answer of the shuffle; for the session query, the next one that names no machine. */
  #nextAnswer(forDiscovery: boolean): HostileAnswer {
    for (;;) {
      if (this.#next >= this.#order.length) {
        this.#order = shuffled(HTTP_ANSWERS, this.random);
        this.#next = 0;
      }
      const answer = this.#order[this.#next++] as HostileAnswer;
      if (!forDiscovery || answer.discoverySafe !== false) return answer;
    }
  }

  #remember(line: string): void {
    this.#recent.push(line);
    if (this.#recent.length > 20) this.#recent.shift();
  }
}

function parseSubscribe(text: string): { object: string; properties: string[] } | undefined {
  try {
    const frame = JSON.parse(text) as { subscribe?: { object?: unknown; properties?: unknown } };
    const { object, properties } = frame.subscribe ?? {};
    if (typeof object !== 'string' || !Array.isArray(properties)) return undefined;
    return { object, properties: properties.filter((property): property is string => typeof property === 'string') };
  } catch {
    return undefined;
  }
}

function shuffled<T>(items: readonly T[], random: Random): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = random.integer(0, index);
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}
