import type { ServerFrame, SubscriptionEntry, ValueChange } from '@stagelink/core/protocol';
import type { WebSocket } from 'ws';
import { resolve, type Evaluator, type LiveWorld, type Writer } from './expressions.js';
import { BackToBack } from './back-to-back.js';
import { LateAnswers } from './late-answers.js';

/** Interval 0 means "every frame": a 60 Hz frame. */
const FRAME_MS = 1000 / 60;

interface ServerSubscription extends SubscriptionEntry {
  evaluate: Evaluator;
  write?: Writer;
  refs: number;
  intervalMs: number;
  timer: NodeJS.Timeout;
  lastSent?: string;
  /** Its `subscriptions` list went out: no value precedes the list that gives the client its id. */
  announced: boolean;
}

export interface SubscribedValue {
  object: string;
  property: string;
  intervalMs: number;
}

export interface SessionContext {
  world: LiveWorld;
  seed: number;
  /** While paused the server neither reads nor sends. */
  isPaused(): boolean;
  /** Whether a value of this pair may go out now (`silentLive`); a value that may is counted. */
  feeds(object: string, property: string): boolean;
  /** Values go out only when they changed (a real director); otherwise at every interval. */
  onChangeOnly(): boolean;
  /** How late lists and errors are sent (`lateLiveAnswers`). */
  lateAnswersMs(): number;
  /** A client frame this soon after the previous one, with no answer in between, is refused (`backToBack`); 0 is off. */
  backToBackMs(): number;
  /** Every client frame is lost and answered "Invalid JSON" (`loseLiveFrames`). */
  losesFrames(): boolean;
  /** Told of each client frame as it arrives, lost or not. */
  frameReceived(): void;
  /** Told of each frame refused as back to back. */
  frameRejected(): void;
  now(): number;
  /** Told every value as it goes out, right before its frame is handed to the socket. */
  valueSent(value: SentValue): void;
  /** Told of each frame handed to the socket: values, a list or an error. */
  frameSent(): void;
}

/** A value the server sent: which pair, and what. */
export interface SentValue {
  object: string;
  property: string;
  value: unknown;
}

/**
 * One client socket: its subscriptions (ids from 0, identical pairs reference-counted), the full list after
 * every change followed by the current values, and values at each subscription's interval when they change.
 */
export class LiveSession {
  readonly #subscriptions = new Map<string, ServerSubscription>();
  readonly #answers: LateAnswers;
  readonly #backToBack: BackToBack;
  #nextId = 0;

  constructor(
    private readonly socket: WebSocket,
    private readonly context: SessionContext,
  ) {
    this.#answers = new LateAnswers(() => context.lateAnswersMs(), () => context.now());
    this.#backToBack = new BackToBack(() => context.backToBackMs(), () => performance.now());
    socket.on('message', (data: Buffer, isBinary) => this.#receive(isBinary ? '' : data.toString('utf8')));
    socket.on('close', () => this.dispose());
    socket.on('error', () => this.dispose());
  }

  get subscriptionCount(): number {
    return this.#subscriptions.size;
  }

  /** Subscribe requests still held: identical pairs subscribed twice count twice. */
  get referenceCount(): number {
    let references = 0;
    for (const subscription of this.#subscriptions.values()) references += subscription.refs;
    return references;
  }

  /** Each server subscription and the interval it sends at: what a client's `updateFrequencyMs` became. */
  get subscribed(): SubscribedValue[] {
    return [...this.#subscriptions.values()].map(({ objectPath, propertyPath, intervalMs }) => ({ object: objectPath, property: propertyPath, intervalMs }));
  }

  dispose(): void {
    for (const subscription of this.#subscriptions.values()) clearInterval(subscription.timer);
    this.#subscriptions.clear();
    this.#answers.dispose();
    this.#backToBack.dispose();
  }

  #receive(text: string): void {
    this.context.frameReceived();
    if (this.context.losesFrames()) {
      this.#sendError('Invalid JSON');
      return;
    }
    if (!this.#backToBack.accepts()) {
      // What a shipping director answers to a frame that arrives right behind another: the frame is lost.
      this.context.frameRejected();
      this.#sendError('Invalid JSON');
      return;
    }
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      this.#sendError('Invalid JSON');
      return;
    }
    const { subscribe, unsubscribe, set } = (frame ?? {}) as Record<string, unknown>;
    if (subscribe !== undefined) this.#subscribe(subscribe);
    else if (unsubscribe !== undefined) this.#unsubscribe(unsubscribe);
    else if (set !== undefined) this.#set(set);
    else this.#sendError('Unknown request: expected subscribe, unsubscribe or set');
  }

  #subscribe(request: unknown): void {
    const { object, properties, configuration } = (request ?? {}) as {
      object?: unknown;
      properties?: unknown;
      configuration?: { updateFrequencyMs?: unknown };
    };
    if (typeof object !== 'string' || !Array.isArray(properties) || !properties.every((p) => typeof p === 'string')) {
      this.#sendError('Unable to subscribe: subscribe needs an object string and a properties array of strings');
      return;
    }
    const interval = Number(configuration?.updateFrequencyMs ?? 0);
    const touched: ServerSubscription[] = [];
    for (const property of properties) {
      const subscription = this.#addReference(object, property, Number.isFinite(interval) && interval > 0 ? interval : FRAME_MS);
      if (subscription) touched.push(subscription);
    }
    if (touched.length === 0) return;
    this.#sendList();
    this.#answers.follow(() => this.#sendCurrentValues(touched));
  }

  /** A subscribe's answer: the current value of each pair still subscribed and fed. */
  #sendCurrentValues(touched: ServerSubscription[]): void {
    const fed = touched.filter((subscription) => this.#isSubscribed(subscription) && this.#feeds(subscription));
    if (fed.length > 0) this.#sendValues(fed);
  }

  #addReference(object: string, property: string, intervalMs: number): ServerSubscription | undefined {
    const key = pairKey(object, property);
    const existing = this.#subscriptions.get(key);
    if (existing) {
      existing.refs++;
      return existing;
    }
    const resolution = resolve(object, property, this.context.world, this.context.seed);
    if (!resolution.found) {
      this.#sendError(`Unable to subscribe to ${object} / ${property} - ${resolution.reason}`);
      return undefined;
    }
    const subscription: ServerSubscription = {
      id: this.#nextId++,
      objectPath: object,
      propertyPath: property,
      evaluate: resolution.evaluate,
      ...(resolution.write ? { write: resolution.write } : {}),
      refs: 1,
      intervalMs,
      timer: setInterval(() => this.#tick(subscription), intervalMs),
      announced: false,
    };
    this.#subscriptions.set(key, subscription);
    return subscription;
  }

  /**
   * `{"set": [{"id", "value"}]}`: no acknowledgement; the new value goes out as `valuesChanged`. A value of the
   * wrong type closes the socket, as shipping servers do; an unknown id or a read-only property is an error.
   */
  #set(request: unknown): void {
    const items = Array.isArray(request) ? (request as { id?: unknown; value?: unknown }[]) : [];
    if (items.length === 0) this.#sendError('Unable to set: set needs a list of {id, value}');
    for (const { id, value } of items) {
      const subscription = [...this.#subscriptions.values()].find((candidate) => candidate.id === id);
      if (!subscription) {
        this.#sendError(`Unable to set: no subscription with id ${JSON.stringify(id)}`);
        continue;
      }
      if (!subscription.write) {
        this.#sendError(`Unable to set ${subscription.objectPath} / ${subscription.propertyPath} - read-only property`);
        continue;
      }
      if (subscription.write(value) !== undefined) {
        this.socket.close(1003, 'Invalid value type');
        return;
      }
    }
    for (const subscription of this.#subscriptions.values()) this.#tick(subscription);
  }

  #unsubscribe(request: unknown): void {
    const { ids, id } = (request ?? {}) as { ids?: unknown; id?: unknown };
    const wanted = Array.isArray(ids) ? ids : [id];
    for (const [key, subscription] of this.#subscriptions) {
      if (!wanted.includes(subscription.id)) continue;
      if (--subscription.refs > 0) continue;
      clearInterval(subscription.timer);
      this.#subscriptions.delete(key);
    }
    this.#sendList();
  }

  /** Values go out when they change, as on the real server (or at every interval, when told so). */
  #tick(subscription: ServerSubscription): void {
    if (this.context.isPaused() || !subscription.announced) return;
    const previous = subscription.lastSent;
    const change = this.#change(subscription);
    const due = subscription.lastSent !== previous || !this.context.onChangeOnly();
    if (due && this.#feeds(subscription)) this.#sendValues([subscription], [change]);
  }

  /** Listeners hear of the values first, so a time they take is never later than the frame leaving. */
  #sendValues(subscriptions: ServerSubscription[], changes = subscriptions.map((subscription) => this.#change(subscription))): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    subscriptions.forEach(({ objectPath, propertyPath }, index) => this.context.valueSent({ object: objectPath, property: propertyPath, value: changes[index]?.value }));
    this.#send({ valuesChanged: changes });
  }

  /** Asks whether the pair is fed; a value held back counts as never sent, so the first one fed again goes out. */
  #feeds(subscription: ServerSubscription): boolean {
    if (this.context.feeds(subscription.objectPath, subscription.propertyPath)) return true;
    subscription.lastSent = undefined;
    return false;
  }

  #isSubscribed(subscription: ServerSubscription): boolean {
    return this.#subscriptions.get(pairKey(subscription.objectPath, subscription.propertyPath)) === subscription;
  }

  /** The current value, remembered as the last one sent. */
  #change(subscription: ServerSubscription): ValueChange {
    const now = this.context.now();
    const value = subscription.evaluate(now);
    subscription.lastSent = JSON.stringify(value);
    return { id: subscription.id, value, changeTimestamp: now / 1000, messageTimestamp: now / 1000 };
  }

  /** The full list, late when answers are; the subscriptions it names may send values once it is out. */
  #sendList(): void {
    const listed = [...this.#subscriptions.values()];
    const subscriptions = listed.map(({ id, objectPath, propertyPath }) => ({ id, objectPath, propertyPath }));
    this.#answers.answer(() => {
      this.#send({ subscriptions });
      for (const subscription of listed) subscription.announced = true;
    });
  }

  #sendError(error: string): void {
    this.#answers.answer(() => this.#send({ error }));
  }

  #send(frame: ServerFrame): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(JSON.stringify(frame));
    this.context.frameSent();
    if (frame.subscriptions !== undefined || frame.error !== undefined) this.#backToBack.answered();
  }
}

function pairKey(object: string, property: string): string {
  return `${object}\u0000${property}`;
}
