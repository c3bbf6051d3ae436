import { LiveUpdateError } from '../errors.js';
import { fullJitter } from '../http/backoff.js';
import { isPropertyError, type ClientFrame, type ServerFrame, type SubscriptionEntry, type ValueChange } from './protocol.js';

export interface LiveValue {
  object: string;
  property: string;
  value: unknown;
}

export interface Consumer {
  intervalMs: number;
  onValue(value: LiveValue): void;
  onError(error: LiveUpdateError): void;
  /** Time of the last value handed over, for consumers slower than the server subscription. */
  lastDelivery: number;
}

/** One server subscription: the server keys them by the exact (object, property) strings. */
interface Pair {
  key: string;
  object: string;
  property: string;
  consumers: Set<Consumer>;
  id?: number;
  /** The interval the server subscription was made with; it cannot be changed, only remade. */
  serverIntervalMs?: number;
  state: 'queued' | 'sent' | 'active' | 'failed';
  /** Why the pair failed, for consumers that join it afterwards. */
  error?: LiveUpdateError;
  /** The server's latest value on this subscription, for consumers that join it afterwards. */
  latest?: { value: unknown } | { error: LiveUpdateError };
  /** Every consumer left while the subscribe was in flight: unsubscribe as soon as the id is known. */
  orphaned?: boolean;
  retries: number;
  retryTimer?: NodeJS.Timeout;
  /** Writes waiting for the server's id for this pair. */
  writes: PendingWrite[];
}

interface PendingWrite {
  value: unknown;
  sent(): void;
  failed(error: LiveUpdateError): void;
}

type Operation = { kind: 'subscribe'; pair: Pair } | { kind: 'unsubscribe'; id: number };

export interface RegistryWire {
  /** Sends a frame if the socket is open; false when it is not. */
  send(frame: ClientFrame): boolean;
  isOpen(): boolean;
  now(): number;
  /** A problem no single subscription owns. */
  onProblem(error: LiveUpdateError): void;
}

/** Some servers reject frames sent back to back: one subscribe in flight, the next on reply or after this. */
export const FRAME_SPACING_MS = 250;
const NOT_LOADED_RETRY_BASE_MS = 500;
const NOT_LOADED_RETRY_CAP_MS = 10_000;

/**
 * Maps consumers onto server subscriptions: identical (object, property) pairs share one, reference-counted;
 * the fastest interval asked for wins and slower consumers are thinned out; every pair is subscribed again
 * after a reconnect. Knows the protocol (docs/api-notes.md, "Live update"), not the socket.
 */
export class SubscriptionRegistry {
  readonly #pairs = new Map<string, Pair>();
  readonly #byId = new Map<number, Pair>();
  readonly #awaitingId = new Set<Pair>();
  #queue: Operation[] = [];
  #inFlight: Operation | undefined;
  #spacingTimer: NodeJS.Timeout | undefined;

  constructor(private readonly wire: RegistryWire) {}

  get size(): number {
    return this.#pairs.size;
  }

  add(object: string, property: string, consumer: Consumer): void {
    const key = `${object}\u0000${property}`;
    let pair = this.#pairs.get(key);
    if (!pair) {
      pair = { key, object, property, consumers: new Set(), state: 'queued', retries: 0, writes: [] };
      this.#pairs.set(key, pair);
      pair.consumers.add(consumer);
      this.#enqueue({ kind: 'subscribe', pair });
      return;
    }
    pair.consumers.add(consumer);
    if (pair.state === 'active') {
      this.#ensureRate(pair);
      this.#giveLatest(pair, consumer);
    }
    if (pair.state === 'failed') this.#tellLateJoiner(pair, consumer);
  }

  /**
   * Writes a value through the pair's server subscription: at once when the server has given its id, else as soon
   * as it does. Rejects when the pair is not watched, failed, or the stream is down: a write is never kept
   * for a later connection, where it would land late.
   */
  write(object: string, property: string, value: unknown): Promise<void> {
    const pair = this.#pairs.get(`${object}\u0000${property}`);
    const where = `${property} on ${object}`;
    if (!pair) return Promise.reject(new LiveUpdateError(`${where} is not watched by this client: subscribe to it before writing.`));
    if (pair.state === 'failed') return Promise.reject(new LiveUpdateError(`${where} cannot be written: ${pair.error?.message ?? 'the server refused it'}`));
    return new Promise((sent, failed) => {
      pair.writes.push({ value, sent, failed });
      if (pair.state === 'active') this.#flushWrites(pair);
      else if (!this.wire.isOpen()) this.#failWrites(pair, 'the live-update stream is not connected');
    });
  }

  remove(object: string, property: string, consumer: Consumer): void {
    const key = `${object}\u0000${property}`;
    const pair = this.#pairs.get(key);
    if (!pair?.consumers.delete(consumer) || pair.consumers.size > 0) return;
    this.#pairs.delete(key);
    clearTimeout(pair.retryTimer);
    this.#failWrites(pair, 'its last subscription closed');
    if (pair.state === 'active' && pair.id !== undefined) {
      this.#byId.delete(pair.id);
      this.#enqueue({ kind: 'unsubscribe', id: pair.id });
    } else if (pair.state === 'sent') {
      pair.orphaned = true;
    } else {
      this.#queue = this.#queue.filter((op) => !(op.kind === 'subscribe' && op.pair === pair));
    }
  }

  /** A new socket: the server knows nothing, subscribe everything again. */
  onOpen(): void {
    this.#forgetServerState();
    for (const pair of this.#pairs.values()) {
      pair.state = 'queued';
      pair.latest = undefined;
      this.#enqueue({ kind: 'subscribe', pair });
    }
  }

  onClose(): void {
    this.#forgetServerState();
  }

  onFrame(frame: ServerFrame): void {
    // A broken server can send any JSON: entries of the wrong shape are dropped, never dereferenced.
    if (Array.isArray(frame.subscriptions)) this.#onSubscriptions(frame.subscriptions.filter(isSubscriptionEntry));
    if (Array.isArray(frame.valuesChanged)) this.#onValues(frame.valuesChanged.filter(isValueChange));
    if (typeof frame.error === 'string') this.#onError(frame.error);
  }

  /** Stops every timer; the registry is not used after this. */
  dispose(): void {
    this.#forgetServerState();
    for (const pair of this.#pairs.values()) clearTimeout(pair.retryTimer);
    this.#pairs.clear();
  }

  #forgetServerState(): void {
    for (const pair of this.#pairs.values()) this.#failWrites(pair, 'the live-update stream dropped');
    clearTimeout(this.#spacingTimer);
    this.#spacingTimer = undefined;
    this.#queue = [];
    this.#inFlight = undefined;
    this.#byId.clear();
    this.#awaitingId.clear();
  }

  #enqueue(op: Operation): void {
    this.#queue.push(op);
    this.#sendNext();
  }

  #sendNext(): void {
    if (this.#inFlight) return;
    const op = this.#queue.shift();
    if (!op) return;
    if (!this.wire.send(this.#frameFor(op))) {
      this.#queue.unshift(op);
      return;
    }
    this.#inFlight = op;
    if (op.kind === 'subscribe') {
      op.pair.state = 'sent';
      this.#awaitingId.add(op.pair);
    }
    this.#spacingTimer = setTimeout(() => this.#completeInFlight(), FRAME_SPACING_MS);
  }

  #frameFor(op: Operation): ClientFrame {
    if (op.kind === 'unsubscribe') return { unsubscribe: { ids: [op.id] } };
    const intervalMs = this.#fastestInterval(op.pair);
    op.pair.serverIntervalMs = intervalMs;
    return {
      subscribe: { object: op.pair.object, properties: [op.pair.property], configuration: { updateFrequencyMs: intervalMs } },
    };
  }

  #completeInFlight(): void {
    clearTimeout(this.#spacingTimer);
    this.#spacingTimer = undefined;
    this.#inFlight = undefined;
    this.#sendNext();
  }

  #onSubscriptions(entries: SubscriptionEntry[]): void {
    const idByKey = new Map(entries.map((entry) => [`${entry.objectPath}\u0000${entry.propertyPath}`, entry.id]));
    for (const pair of this.#awaitingId) {
      const id = idByKey.get(pair.key);
      if (id === undefined) continue;
      this.#awaitingId.delete(pair);
      this.#activate(pair, id);
    }
    this.#completeInFlight();
  }

  #activate(pair: Pair, id: number): void {
    pair.id = id;
    if (pair.orphaned) {
      this.#enqueue({ kind: 'unsubscribe', id });
      return;
    }
    pair.state = 'active';
    pair.retries = 0;
    this.#byId.set(id, pair);
    this.#ensureRate(pair);
    this.#flushWrites(pair);
  }

  #flushWrites(pair: Pair): void {
    if (pair.id === undefined || pair.writes.length === 0) return;
    const writes = pair.writes.splice(0);
    const frame: ClientFrame = { set: writes.map(({ value }) => ({ id: pair.id as number, value })) };
    if (!this.wire.send(frame)) {
      pair.writes.unshift(...writes);
      this.#failWrites(pair, 'the live-update stream is not connected');
      return;
    }
    for (const write of writes) write.sent();
  }

  #failWrites(pair: Pair, reason: string): void {
    const error = new LiveUpdateError(`${pair.property} on ${pair.object} was not written: ${reason}.`);
    for (const write of pair.writes.splice(0)) write.failed(error);
  }

  /** The server cannot change a pair's interval: remake it when a faster consumer arrives. */
  #ensureRate(pair: Pair): void {
    if (pair.id === undefined || pair.serverIntervalMs === undefined) return;
    if (this.#fastestInterval(pair) >= pair.serverIntervalMs) return;
    this.#byId.delete(pair.id);
    pair.state = 'queued';
    pair.latest = undefined;
    this.#enqueue({ kind: 'unsubscribe', id: pair.id });
    this.#enqueue({ kind: 'subscribe', pair });
  }

  #fastestInterval(pair: Pair): number {
    return Math.min(...[...pair.consumers].map((consumer) => consumer.intervalMs));
  }

  #onValues(changes: NonNullable<ServerFrame['valuesChanged']>): void {
    const now = this.wire.now();
    for (const change of changes) {
      const pair = this.#byId.get(change.id);
      if (!pair) continue;
      if (isPropertyError(change.value)) {
        const error = new LiveUpdateError(`${pair.property} on ${pair.object} failed: ${change.value.errorType}: ${change.value.message}`);
        pair.latest = { error };
        for (const consumer of pair.consumers) consumer.onError(error);
        continue;
      }
      pair.latest = { value: change.value };
      for (const consumer of pair.consumers) this.#deliver(pair, consumer, change.value, now);
    }
  }

  #deliver(pair: Pair, consumer: Consumer, value: unknown, now: number): void {
    const slower = consumer.intervalMs > (pair.serverIntervalMs ?? 0);
    // 10 % slack so a consumer at 250 ms fed every 100 ms gets every third value, not every fourth.
    if (slower && now - consumer.lastDelivery < consumer.intervalMs * 0.9) return;
    consumer.lastDelivery = now;
    consumer.onValue({ object: pair.object, property: pair.property, value });
  }

  /** Errors carry no request id: with one request in flight, it is that one's. */
  #onError(message: string): void {
    const op = this.#inFlight;
    if (op?.kind !== 'subscribe') {
      this.wire.onProblem(new LiveUpdateError(`The live-update server reported: ${message}`));
      this.#completeInFlight();
      return;
    }
    const pair = op.pair;
    this.#awaitingId.delete(pair);
    pair.state = 'failed';
    pair.error = new LiveUpdateError(`Could not watch ${pair.property} on ${pair.object}: ${message}`);
    this.#failWrites(pair, message);
    for (const consumer of pair.consumers) consumer.onError(pair.error);
    // The project may still be loading: that object will exist soon.
    if (/unable to find object/i.test(message) && !pair.orphaned) this.#retryLater(pair);
    this.#completeInFlight();
  }

  /**
   * The server sends a value only when it changes: a consumer joining a pair that already has its value would
   * otherwise wait for the next change, forever for a value that never changes (a director's remote node list).
   * Handed over after `add` returns, unless the consumer left or the pair was remade meanwhile.
   */
  #giveLatest(pair: Pair, consumer: Consumer): void {
    const latest = pair.latest;
    if (!latest) return;
    queueMicrotask(() => {
      if (pair.latest !== latest || !pair.consumers.has(consumer)) return;
      if ('error' in latest) consumer.onError(latest.error);
      else this.#deliver(pair, consumer, latest.value, this.wire.now());
    });
  }

  /** Told after `add` returns, as the first consumers were, unless the pair recovered or it left meanwhile. */
  #tellLateJoiner(pair: Pair, consumer: Consumer): void {
    queueMicrotask(() => {
      if (pair.state === 'failed' && pair.error && pair.consumers.has(consumer)) consumer.onError(pair.error);
    });
  }

  #retryLater(pair: Pair): void {
    const delay = NOT_LOADED_RETRY_BASE_MS + fullJitter(pair.retries++, NOT_LOADED_RETRY_BASE_MS, NOT_LOADED_RETRY_CAP_MS);
    pair.retryTimer = setTimeout(() => {
      if (this.#pairs.get(pair.key) !== pair || pair.state !== 'failed') return;
      pair.state = 'queued';
      this.#enqueue({ kind: 'subscribe', pair });
    }, delay);
  }
}

function isSubscriptionEntry(entry: unknown): entry is SubscriptionEntry {
  const candidate = entry as Partial<SubscriptionEntry> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.id === 'number' &&
    typeof candidate.objectPath === 'string' &&
    typeof candidate.propertyPath === 'string'
  );
}

function isValueChange(change: unknown): change is ValueChange {
  return typeof change === 'object' && change !== null && typeof (change as Partial<ValueChange>).id === 'number';
}
