import type { ClientFrame, ServerFrame, SubscriptionEntry } from '@stagelink/core/protocol';
import type { WebSocket } from 'ws';
import { startSimulatorFront } from './simulator-front.js';

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
  const sent = { values: 0 };
  const front = await startSimulatorFront(upstreamUrl, { openSession: (ws) => new FeedSession(ws, 1000 / rateHz, sent) });
  return {
    url: front.url,
    get valuesSent() {
      return sent.values;
    },
    close: () => front.close(),
  };
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
