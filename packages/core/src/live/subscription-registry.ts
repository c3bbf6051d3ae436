import { LiveFrameRefusedError, LiveUpdateError } from '../errors.js';
import { fullJitter } from '../http/backoff.js';
import { DeliveryPace } from './delivery-pace.js';
import { idNamedIn, isDroppedFrame, isObjectNotLoaded, isWriteRefusal, pairNamedIn } from './error-attribution.js';
import { FramePacer } from './frame-pacer.js';
import { DEFAULT_LIVENESS_TIMING, probePauseMs, silenceWindowMs, type LivenessTiming } from './liveness.js';
import { isPropertyError, type ClientFrame, type ServerFrame, type SubscriptionEntry, type ValueChange } from './protocol.js';
import { UnansweredFrames } from './unanswered-frames.js';

export interface LiveValue {
  object: string;
  property: string;
  value: unknown;
}

export interface Consumer {
  intervalMs: number;
  onValue(value: LiveValue): void;
  onError(error: LiveUpdateError): void;
  /** The pair's values stopped and a probe brought none (true), or values came again (false). */
  onStale(stale: boolean, pair: string): void;
}

/** One server subscription: the server keys them by the exact (object, property) strings. */
interface Pair {
  key: string;
  object: string;
  property: string;
  consumers: Map<Consumer, DeliveryPace>;
  id?: number;
  /** The interval the server subscription was made with; it cannot be changed, only remade. */
  serverIntervalMs?: number;
  state: 'queued' | 'sent' | 'active' | 'failed';
  /** Why the pair failed, for consumers that join it afterwards. */
  error?: LiveUpdateError;
  /** The server's latest value on this subscription, for consumers that join it afterwards. */
  latest?: { value: unknown } | { error: LiveUpdateError };
  /** Values stopped and the last probe brought none; cleared by the next value. */
  stale: boolean;
  /** Probes (or asks for a missing id) that brought nothing since the last value. */
  probes: number;
  /**
   * Probes in a row that brought back the value the pair had: a value that does not change is asked after a longer
   * silence each time (see #silenceWindow), so a venue's unchanging values do not keep the director busy.
   */
  quietProbes: number;
  /** The last value heard on this socket, as JSON: what tells a probe's answer from a change. */
  heard?: string;
  /** Fires when the pair has shown no sign of life for as long as it may. */
  lifeTimer?: NodeJS.Timeout;
  /** The timer waits out a silence window after a value (not a subscribe's answer); values only move this on. */
  silenceSince?: number;
  retries: number;
  retryTimer?: NodeJS.Timeout;
  /**
   * Subscribe frames sent for this pair since the server last held none of it. The server counts references to
   * identical subscriptions: a pair asked again before its id came holds one reference per ask.
   */
  references: number;
  /** Writes waiting for the server's id for this pair. */
  writes: PendingWrite[];
  /** Set frames sent with a value of this pair: a lost one is written again only while none went after it. */
  setsSent: number;
}

interface PendingWrite {
  value: unknown;
  /** Times the server lost a frame that carried this value; none for a value not sent yet. */
  lost?: number;
  sent(): void;
  failed(error: LiveUpdateError): void;
  /** Fails the write unsent when its pair gets no id in time; none for a write sent again. */
  timer?: NodeJS.Timeout;
}

/** A frame sent: what a server that says it lost a frame has lost, once matched to its answer. */
type SentFrame = { kind: 'operation'; op: Operation } | { kind: 'set'; writes: { pair: Pair; value: unknown; lost: number; set: number }[] };

/**
 * `lost`: times the server lost this frame ("Invalid JSON") so far. `probe`: part of asking a quiet pair again,
 * which goes after every other frame that waits; an unsubscribe that is part of a probe names its pair.
 */
type Operation = ({ kind: 'subscribe'; pair: Pair } | { kind: 'unsubscribe'; id: number; pair?: Pair }) & { lost?: number; probe?: boolean };

export interface RegistryWire {
  /** Sends a frame if the socket is open; false when it is not. */
  send(frame: ClientFrame): boolean;
  isOpen(): boolean;
  now(): number;
  /** A problem no single subscription owns. */
  onProblem(error: LiveUpdateError): void;
}

/** One subscribe or unsubscribe in flight: the next goes on its answer, or after this when none comes. */
export const FRAME_SPACING_MS = 250;
/**
 * How often one frame is sent before the registry stops sending it when the server answers "Invalid JSON" each
 * time (a lost frame goes again after a pause that grows, see resendGapMs): a subscription then fails, to be asked
 * for again on the next reconnect or after a probe's pause.
 */
export const LOST_FRAME_TRIES = 5;
const NOT_LOADED_RETRY_BASE_MS = 500;
const NOT_LOADED_RETRY_CAP_MS = 10_000;

const keyOf = (object: string, property: string): string => `${object}\u0000${property}`;

/**
 * Maps consumers onto server subscriptions: identical (object, property) pairs share one, reference-counted;
 * the fastest interval asked for wins and slower consumers are paced, ending on the latest value; every pair is
 * subscribed again after a reconnect. Answers are matched to pairs by what they name, never by timing, and a pair
 * that goes quiet is probed and, when the probe brings nothing, reported stale. Knows the protocol
 * (docs/api-notes.md, "Live update"), not the socket.
 */
export class SubscriptionRegistry {
  readonly #pairs = new Map<string, Pair>();
  readonly #byId = new Map<number, Pair>();
  /** Pairs whose consumers all left while their subscribe was in flight: unsubscribed once their id is known. */
  readonly #orphans = new Map<string, Pair>();
  /**
   * Ids this client unsubscribed that the server may still list: a list answered late can predate the
   * unsubscribe, and must not hand such an id back to a pair. Forgotten once a list no longer holds them.
   */
  readonly #retiredIds = new Set<number>();
  #queue: Operation[] = [];
  /** The subscribe or unsubscribe sent last, until its answer or FRAME_SPACING_MS after it. */
  #inFlight: Operation | undefined;
  #spacingTimer: NodeJS.Timeout | undefined;
  readonly #unanswered: UnansweredFrames<SentFrame>;
  /** The last frame sent was a write: a subscribe or unsubscribe that is due goes next. */
  #writeWentLast = false;
  readonly #pacer: FramePacer;
  readonly #timing: LivenessTiming;

  constructor(
    private readonly wire: RegistryWire,
    timing: Partial<LivenessTiming> = {},
  ) {
    this.#timing = { ...DEFAULT_LIVENESS_TIMING, ...timing };
    this.#pacer = new FramePacer(() => wire.now());
    // An answer later than this is not waited for: the pair it would bring is stale and asked again by then.
    this.#unanswered = new UnansweredFrames(() => wire.now(), this.#timing.answerWaitMs);
  }

  get size(): number {
    return this.#pairs.size;
  }

  add(object: string, property: string, consumer: Consumer): void {
    const key = keyOf(object, property);
    const pace = new DeliveryPace(consumer.intervalMs, () => this.wire.now());
    const existing = this.#pairs.get(key) ?? this.#adoptOrphan(key);
    if (!existing) {
      const pair: Pair = { key, object, property, consumers: new Map([[consumer, pace]]), state: 'queued', stale: false, probes: 0, quietProbes: 0, retries: 0, references: 0, writes: [], setsSent: 0 };
      this.#pairs.set(key, pair);
      this.#enqueue({ kind: 'subscribe', pair });
      return;
    }
    existing.consumers.set(consumer, pace);
    if (existing.state === 'active') {
      this.#ensureRate(existing);
      this.#giveLatest(existing, consumer);
    }
    if (existing.state === 'failed') this.#tellLateJoiner(existing, consumer);
    if (existing.stale) this.#tellStale(existing, consumer);
  }

  /**
   * Writes a value through the pair's server subscription: at once when the server has given its id, else as soon
   * as it does, within `heldWriteMs`. Rejects when the pair is not watched, failed, the stream is down or the id
   * does not come in time: a write is never kept for later, where it would land late.
   */
  write(object: string, property: string, value: unknown): Promise<void> {
    const pair = this.#pairs.get(keyOf(object, property));
    const where = `${property} on ${object}`;
    if (!pair) return Promise.reject(new LiveUpdateError(`${where} is not watched by this client: subscribe to it before writing.`));
    if (pair.state === 'failed') return Promise.reject(new LiveUpdateError(`${where} cannot be written: ${pair.error?.message ?? 'the server refused it'}`));
    if (pair.state !== 'active' && !this.wire.isOpen()) return Promise.reject(writeError(pair, 'the live-update stream is not connected'));
    return new Promise((sent, failed) => {
      const timer = setTimeout(() => {
        pair.writes = pair.writes.filter((write) => write.timer !== timer);
        failed(writeError(pair, `the server did not confirm the subscription within ${this.#timing.heldWriteMs} ms, so it was not sent`));
      }, this.#timing.heldWriteMs);
      pair.writes.push({ value, sent, failed, timer });
      if (pair.state === 'active') this.#pump();
      else this.#hurry(pair);
    });
  }

  remove(object: string, property: string, consumer: Consumer): void {
    const key = keyOf(object, property);
    const pair = this.#pairs.get(key);
    const pace = pair?.consumers.get(consumer);
    if (!pair || !pace) return;
    pace.cancel();
    pair.consumers.delete(consumer);
    if (pair.consumers.size > 0) return;
    this.#pairs.delete(key);
    this.#quiet(pair);
    this.#failWrites(pair, 'its last subscription closed');
    if (pair.state === 'active' && pair.id !== undefined) {
      this.#unsubscribe(pair.id, pair.references);
    } else if (pair.state === 'sent') {
      this.#orphans.set(key, pair);
    }
    this.#queue = this.#queue.filter((op) => !(op.kind === 'subscribe' && op.pair === pair));
  }

  /** A new socket: the server knows nothing, subscribe everything again. */
  onOpen(): void {
    this.#forgetServerState();
    for (const pair of this.#pairs.values()) this.#requeue(pair);
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
    for (const pair of this.#pairs.values()) {
      this.#failWrites(pair, 'the live-update stream dropped');
      this.#quiet(pair);
      // The link's own status says offline now; a stale mark would outlive it into the next connection.
      this.#setStale(pair, false);
      pair.probes = 0;
      pair.quietProbes = 0;
      pair.heard = undefined;
      pair.references = 0;
      // Ids restart on a new socket, and a value from before the drop must not reach a consumer joining meanwhile.
      this.#forgetId(pair);
      pair.latest = undefined;
      if (pair.state !== 'failed') pair.state = 'queued';
    }
    this.#pacer.reset();
    this.#unanswered.clear();
    this.#writeWentLast = false;
    clearTimeout(this.#spacingTimer);
    this.#spacingTimer = undefined;
    this.#queue = [];
    this.#inFlight = undefined;
    this.#byId.clear();
    this.#orphans.clear();
    this.#retiredIds.clear();
  }

  /** Stops what waits on the server for this pair: its life and retry timers and the values paced for its consumers. */
  #quiet(pair: Pair): void {
    clearTimeout(pair.lifeTimer);
    pair.lifeTimer = undefined;
    clearTimeout(pair.retryTimer);
    pair.retryTimer = undefined;
    pair.silenceSince = undefined;
    for (const pace of pair.consumers.values()) pace.cancel();
  }

  #adoptOrphan(key: string): Pair | undefined {
    const orphan = this.#orphans.get(key);
    if (!orphan) return undefined;
    this.#orphans.delete(key);
    this.#pairs.set(key, orphan);
    // Its subscribe is still in flight: it must show life in time, as when it was sent.
    this.#expectLife(orphan, this.#timing.answerWaitMs);
    return orphan;
  }

  /** Gives up the server subscription: its id is not handed to any pair again until a list no longer holds it. */
  #unsubscribe(id: number, references = 1, probeOf?: Pair): void {
    this.#byId.delete(id);
    this.#retiredIds.add(id);
    for (let i = 0; i < references; i++) this.#enqueue({ kind: 'unsubscribe', id, ...(probeOf ? { probe: true, pair: probeOf } : {}) });
  }

  #enqueue(op: Operation): void {
    this.#queue.push(op);
    this.#pump();
  }

  /** A write waits on this pair's subscribe: send it before the other pairs queued after a reconnect. */
  #hurry(pair: Pair): void {
    for (const op of this.#queue) if (op.pair === pair) op.probe = false;
    const index = this.#queue.findIndex((op) => op.kind === 'subscribe' && op.pair === pair);
    if (index <= 0) return;
    const [op] = this.#queue.splice(index, 1) as [Operation];
    const firstSubscribe = this.#queue.findIndex((each) => each.kind === 'subscribe');
    this.#queue.splice(firstSubscribe === -1 ? this.#queue.length : firstSubscribe, 0, op);
  }

  /**
   * Sends what is due, never right behind the previous frame: the writes waiting, as one frame (a hand on a dial
   * goes first), then one subscribe or unsubscribe at a time. A hand that never pauses has writes waiting at every
   * gap: after a write, a subscribe or unsubscribe that is due goes first, or no subscription would come up while
   * a fader is dragged.
   */
  #pump(): void {
    if (this.#pacer.waitMs > 0) return this.#pacer.wakeWhenClear(() => this.#pump());
    const operationDue = !this.#inFlight && this.#queue.length > 0;
    if (!(operationDue && this.#writeWentLast) && this.#sendWrites()) return this.#pump();
    if (this.#inFlight) return;
    const op = this.#nextOperation();
    if (!op) return;
    if (!this.wire.send(this.#frameFor(op))) {
      this.#queue.unshift(op);
      return;
    }
    this.#pacer.sent();
    this.#unanswered.sent({ kind: 'operation', op });
    this.#writeWentLast = false;
    this.#inFlight = op;
    if (op.kind === 'subscribe') {
      op.pair.state = 'sent';
      op.pair.references++;
      this.#expectLife(op.pair, this.#timing.answerWaitMs);
    }
    this.#spacingTimer = setTimeout(() => this.#completeInFlight(), FRAME_SPACING_MS);
  }

  /**
   * The next subscribe or unsubscribe: the first that is not a probe, else the first probe. A director answering
   * in a quarter of a second takes 4 frames a second, and a few clocks' quiet pairs probed every few seconds ask
   * for more: a subscription asked for meanwhile must not wait behind every probe.
   */
  #nextOperation(): Operation | undefined {
    const index = this.#queue.findIndex((op) => !op.probe);
    return this.#queue.splice(index === -1 ? 0 : index, 1)[0];
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
    this.#pump();
  }

  /** The FULL list of this socket's subscriptions: every pair is matched by its key, whatever was asked last. */
  #onSubscriptions(entries: SubscriptionEntry[]): void {
    const listed = new Set(entries.map((entry) => entry.id));
    for (const id of this.#retiredIds) if (!listed.has(id)) this.#retiredIds.delete(id);
    const current = entries.filter((entry) => !this.#retiredIds.has(entry.id));
    const idByKey = new Map(current.map((entry) => [keyOf(entry.objectPath, entry.propertyPath), entry.id]));
    for (const [key, orphan] of this.#orphans) {
      const id = idByKey.get(key);
      if (id === undefined) continue;
      this.#orphans.delete(key);
      this.#quiet(orphan);
      this.#unsubscribe(id, orphan.references);
    }
    for (const pair of this.#pairs.values()) {
      const id = idByKey.get(pair.key);
      if (pair.state === 'active') this.#checkActive(pair, id);
      else if (id !== undefined && pair.state !== 'queued') this.#activate(pair, id);
    }
    this.#onAnswer(this.#unanswered.answerOperation());
  }

  /**
   * An answer came for `frame`. The operation in flight is done with only when the answer is its own: one a busy
   * director sends late is an earlier frame's, and the next frame waits for this one's answer or its spacing.
   */
  #onAnswer(frame: SentFrame | undefined): void {
    this.#pacer.answered(this.#unanswered.allAnswered);
    if (frame?.kind === 'operation' && frame.op === this.#inFlight) this.#completeInFlight();
    else this.#pump();
  }

  /** A pair the server dropped or renumbered without closing the socket must not stay active on a dead id. */
  #checkActive(pair: Pair, listedId: number | undefined): void {
    if (listedId === pair.id) return;
    this.#forgetId(pair);
    if (listedId === undefined) {
      pair.references = 0;
      return this.#requeue(pair);
    }
    pair.id = listedId;
    this.#byId.set(listedId, pair);
  }

  #activate(pair: Pair, id: number): void {
    pair.id = id;
    pair.state = 'active';
    pair.references = Math.max(pair.references, 1);
    // An ask not sent yet is answered already.
    this.#queue = this.#queue.filter((op) => !(op.kind === 'subscribe' && op.pair === pair));
    pair.retries = 0;
    pair.error = undefined;
    this.#byId.set(id, pair);
    this.#ensureRate(pair);
  }

  /**
   * Sends every write waiting on a pair that has its id, as one frame with the newest value per pair (writes made
   * within a gap of each other go out as one): false when none waits.
   */
  #sendWrites(): boolean {
    const due = [...this.#pairs.values()].filter((pair) => pair.state === 'active' && pair.id !== undefined && pair.writes.length > 0);
    if (due.length === 0) return false;
    const batches = due.map((pair) => ({ pair, writes: pair.writes.splice(0) }));
    for (const { writes } of batches) for (const write of writes) clearTimeout(write.timer);
    const values = batches.map(({ pair, writes }) => ({
      pair,
      value: coalesce(writes.map(({ value }) => value)),
      lost: Math.max(...writes.map(({ lost = 0 }) => lost)),
      set: (pair.setsSent += 1),
    }));
    const frame: ClientFrame = { set: values.map(({ pair, value }) => ({ id: pair.id as number, value })) };
    if (!this.wire.send(frame)) {
      for (const { pair, writes } of batches) {
        const error = writeError(pair, 'the live-update stream is not connected');
        for (const write of writes) write.failed(error);
      }
      return false;
    }
    this.#pacer.sent();
    this.#unanswered.sent({ kind: 'set', writes: values });
    this.#writeWentLast = true;
    for (const { writes } of batches) for (const write of writes) write.sent();
    return true;
  }

  #failWrites(pair: Pair, reason: string): void {
    const error = writeError(pair, reason);
    for (const write of pair.writes.splice(0)) {
      clearTimeout(write.timer);
      write.failed(error);
    }
  }

  /** The server cannot change a pair's interval: remake it when a faster consumer arrives. */
  #ensureRate(pair: Pair): void {
    if (pair.id === undefined || pair.serverIntervalMs === undefined) return;
    if (this.#fastestInterval(pair) >= pair.serverIntervalMs) return;
    this.#subscribeAgain(pair);
  }

  /** Unsubscribes the pair's server subscription, if it has one, and subscribes it again; `probe` when it went quiet. */
  #subscribeAgain(pair: Pair, probe = false): void {
    if (pair.state === 'active' && pair.id !== undefined) {
      this.#unsubscribe(pair.id, pair.references, probe ? pair : undefined);
      pair.references = 0;
    }
    this.#requeue(pair, probe);
  }

  #requeue(pair: Pair, probe = false): void {
    // A probe of this pair that waits goes now, in its order: its unsubscribe must reach the server first, or the
    // server would answer the new ask with the id being retired.
    if (!probe) for (const op of this.#queue) if (op.probe && op.pair === pair) op.probe = false;
    this.#forgetId(pair);
    pair.state = 'queued';
    pair.latest = undefined;
    this.#enqueue({ kind: 'subscribe', pair, probe });
  }

  #fastestInterval(pair: Pair): number {
    return Math.min(...[...pair.consumers.keys()].map((consumer) => consumer.intervalMs));
  }

  #onValues(changes: ValueChange[]): void {
    for (const change of changes) {
      const pair = this.#byId.get(change.id);
      if (!pair) continue;
      this.#countQuietProbe(pair, JSON.stringify(change.value));
      this.#sawLife(pair);
      if (isPropertyError(change.value)) {
        const error = new LiveUpdateError(`${pair.property} on ${pair.object} failed: ${change.value.errorType}: ${change.value.message}`);
        pair.latest = { error };
        for (const consumer of pair.consumers.keys()) consumer.onError(error);
        continue;
      }
      pair.latest = { value: change.value };
      for (const consumer of pair.consumers.keys()) this.#deliver(pair, consumer);
    }
  }

  /** A probe's answer that brings the value the pair had (not a stale pair's first value) counts; a change starts again. */
  #countQuietProbe(pair: Pair, heard: string): void {
    if (heard !== pair.heard) {
      // The wait before the next probe shrinks back: the running timer, set for the longer one, is set again.
      if (pair.quietProbes > 0) {
        clearTimeout(pair.lifeTimer);
        pair.silenceSince = undefined;
      }
      pair.quietProbes = 0;
    } else if (pair.probes > 0 && !pair.stale) pair.quietProbes++;
    pair.heard = heard;
  }

  /** Hands the pair's latest value over, now or at the end of a slower consumer's interval. */
  #deliver(pair: Pair, consumer: Consumer): void {
    pair.consumers.get(consumer)?.offer(pair.serverIntervalMs ?? 0, () => {
      const latest = pair.latest;
      if (latest && 'value' in latest && pair.consumers.has(consumer)) {
        consumer.onValue({ object: pair.object, property: pair.property, value: latest.value });
      }
    });
  }

  /** A value (or a property error, which the server sends on every interval) proves the subscription is fed. */
  #sawLife(pair: Pair): void {
    pair.probes = 0;
    this.#setStale(pair, false);
    // A timer per value would churn at every interval of every pair: the running one is moved on when it fires.
    const watching = pair.silenceSince !== undefined;
    pair.silenceSince = this.wire.now();
    if (!watching) this.#expectLife(pair, this.#silenceWindow(pair), pair.silenceSince);
  }

  /** Doubled for each probe in a row that found the value unchanged, up to the longest pause between probes. */
  #silenceWindow(pair: Pair): number {
    const window = silenceWindowMs(pair.serverIntervalMs ?? 0, this.#timing);
    return Math.min(window * 2 ** pair.quietProbes, Math.max(window, this.#timing.probeCapMs));
  }

  #expectLife(pair: Pair, withinMs: number, silenceSince?: number): void {
    clearTimeout(pair.lifeTimer);
    pair.silenceSince = silenceSince;
    pair.lifeTimer = setTimeout(() => this.#noLife(pair), withinMs);
  }

  /**
   * Nothing came in time. After a value: the pair went quiet, which a value that does not change also does, so
   * ask again (the server answers a subscribe with the current value). After a subscribe: nothing came of it, so
   * its consumers are told stale, and it is asked again after a pause that grows.
   */
  #noLife(pair: Pair): void {
    pair.lifeTimer = undefined;
    if (this.#pairs.get(pair.key) !== pair || pair.state === 'failed' || !this.wire.isOpen()) return;
    const since = pair.silenceSince;
    const left = since === undefined ? 0 : since + this.#silenceWindow(pair) - this.wire.now();
    if (left > 0) return this.#expectLife(pair, left, since);
    pair.silenceSince = undefined;
    if (pair.state === 'active' && pair.probes === 0 && !pair.stale) {
      pair.probes = 1;
      this.#subscribeAgain(pair, true);
      return;
    }
    this.#setStale(pair, true);
    pair.lifeTimer = setTimeout(() => {
      pair.lifeTimer = undefined;
      if (this.#pairs.get(pair.key) !== pair || pair.state === 'failed' || !this.wire.isOpen()) return;
      pair.probes++;
      if (pair.state === 'queued') return this.#expectLife(pair, this.#timing.answerWaitMs);
      this.#subscribeAgain(pair, true);
    }, probePauseMs(Math.max(0, pair.probes - 1), this.#timing));
  }

  #setStale(pair: Pair, stale: boolean): void {
    if (pair.stale === stale) return;
    pair.stale = stale;
    for (const consumer of pair.consumers.keys()) consumer.onStale(stale, pair.key);
  }

  /**
   * An error frame carries no request id. It is applied to the pair it names, else to the subscription id it
   * names, else, only when exactly one subscribe awaits its answer, to that one; anything else is the
   * connection's problem. A refused write never fails a subscription.
   */
  #onError(message: string): void {
    if (isDroppedFrame(message)) return this.#onDroppedFrame(message);
    const id = idNamedIn(message);
    const named = pairNamedIn(message, [...this.#pairs.values(), ...this.#orphans.values()]) ?? this.#pairWithId(id);
    if (isWriteRefusal(message)) {
      this.#onAnswer(this.#unanswered.answerSet());
      const where = named ? ` of ${named.property} on ${named.object}` : '';
      this.wire.onProblem(new LiveUpdateError(`The live-update server refused a write${where}: ${message}`));
      if (named?.state === 'active' && /no subscription/i.test(message)) this.#subscribeAgain(named);
    } else {
      // An id that no pair holds any more (one this client unsubscribed) is not about a subscribe in flight.
      const pair = named ?? (id === undefined ? this.#onlyAwaiting() : undefined);
      if (pair) this.#fail(pair, message);
      else this.wire.onProblem(new LiveUpdateError(`The live-update server reported: ${message}`));
      this.#onAnswer(this.#unanswered.answerOperation());
    }
  }

  /**
   * A frame was lost, not refused: the last one sent, which came right behind another, or one the server cannot
   * read, which it loses every time. It goes again after a pause that grows with each loss in a row (the pacer's):
   * a subscribe or unsubscribe as it was, a write unless a newer one to its pair waits or went since. After LOST_FRAME_TRIES
   * losses of one frame it is no longer sent: its subscription fails, to be asked for again later.
   */
  #onDroppedFrame(message: string): void {
    this.#pacer.dropped();
    const lost = this.#unanswered.answerLost();
    if (this.#pacer.drops === 1) this.wire.onProblem(new LiveUpdateError(`The live-update server dropped a frame (${message.trim()})${lost ? '; it is sent again after a pause' : ''}.`));
    if (lost?.kind === 'set') {
      for (const { pair, value, lost: times, set } of lost.writes) {
        // A newer value waits or went since: writing this one again would move the control back.
        if (this.#pairs.get(pair.key) !== pair || pair.writes.length > 0 || pair.setsSent !== set) continue;
        if (times + 1 < LOST_FRAME_TRIES) pair.writes.push({ value, lost: times + 1, sent: () => undefined, failed: () => undefined });
        else this.wire.onProblem(new LiveFrameRefusedError(`${pair.property} on ${pair.object} was not written: ${refusedAsInvalidJson('write', times + 1)}. It is not sent again.`));
      }
      return this.#pump();
    }
    const op = lost?.op;
    if (op) this.#sendAgain(op);
    if (op && op === this.#inFlight) this.#completeInFlight();
    else this.#pump();
  }

  /** A subscribe or unsubscribe the server lost goes again first, unless it is no longer wanted or tried too often. */
  #sendAgain(op: Operation): void {
    op.lost = (op.lost ?? 0) + 1;
    if (op.kind === 'unsubscribe') {
      if (op.lost < LOST_FRAME_TRIES) this.#queue.unshift(op);
      else this.wire.onProblem(new LiveFrameRefusedError(`The live-update subscription with id ${op.id} could not be released: ${refusedAsInvalidJson('unsubscribe', op.lost)}. The server keeps it until the socket closes.`));
      return;
    }
    const { pair } = op;
    pair.references = Math.max(0, pair.references - 1);
    // A pair whose consumers all left meanwhile is not asked for again.
    if (this.#pairs.get(pair.key) !== pair) this.#orphans.delete(pair.key);
    // Answered late, the loss may come after the pair was asked for again (a probe): that ask stands for it.
    else if (pair.state !== 'sent') return;
    else if (op.lost < LOST_FRAME_TRIES) this.#queue.unshift(op);
    else this.#giveUpLostSubscribe(pair, op.lost);
  }

  /** The server lost the pair's subscribe every time: it fails, and is asked for again after a probe's pause or on a reconnect. */
  #giveUpLostSubscribe(pair: Pair, tries: number): void {
    const pauseMs = probePauseMs(pair.retries, this.#timing);
    const error = new LiveFrameRefusedError(
      `Could not watch ${pair.property} on ${pair.object}: ${refusedAsInvalidJson('subscribe', tries)}. It is asked for again on the next reconnect, or in ${Math.round(pauseMs / 1000)} s.`,
    );
    this.#markFailed(pair, error);
    this.#retryLater(pair, pauseMs);
  }

  /** The pair no longer holds a server id; the id's entry goes only if it is still this pair's (ids are reused). */
  #forgetId(pair: Pair): void {
    if (pair.id !== undefined && this.#byId.get(pair.id) === pair) this.#byId.delete(pair.id);
    pair.id = undefined;
  }

  #pairWithId(id: number | undefined): Pair | undefined {
    return id === undefined ? undefined : this.#byId.get(id);
  }

  #onlyAwaiting(): Pair | undefined {
    const awaiting = [...this.#pairs.values()].filter((pair) => pair.state === 'sent');
    return awaiting.length === 1 ? awaiting[0] : undefined;
  }

  #fail(pair: Pair, message: string): void {
    if (this.#orphans.get(pair.key) === pair) {
      this.#orphans.delete(pair.key);
      return;
    }
    // A refused ask holds no reference at the server.
    pair.references = Math.max(0, pair.references - 1);
    this.#markFailed(pair, new LiveUpdateError(`Could not watch ${pair.property} on ${pair.object}: ${message}`));
    if (isObjectNotLoaded(message)) this.#retryLater(pair, NOT_LOADED_RETRY_BASE_MS + fullJitter(pair.retries, NOT_LOADED_RETRY_BASE_MS, NOT_LOADED_RETRY_CAP_MS));
  }

  #markFailed(pair: Pair, error: LiveUpdateError): void {
    this.#forgetId(pair);
    this.#quiet(pair);
    this.#setStale(pair, false);
    pair.state = 'failed';
    pair.error = error;
    this.#failWrites(pair, error.message);
    for (const consumer of pair.consumers.keys()) consumer.onError(error);
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
      else this.#deliver(pair, consumer);
    });
  }

  /** Told after `add` returns, as the first consumers were, unless the pair recovered or it left meanwhile. */
  #tellLateJoiner(pair: Pair, consumer: Consumer): void {
    queueMicrotask(() => {
      if (pair.state === 'failed' && pair.error && pair.consumers.has(consumer)) consumer.onError(pair.error);
    });
  }

  #tellStale(pair: Pair, consumer: Consumer): void {
    queueMicrotask(() => {
      if (pair.stale && pair.consumers.has(consumer)) consumer.onStale(true, pair.key);
    });
  }

  /** Asks for a failed pair again after `delayMs`; each retry before the pair comes up waits longer. */
  #retryLater(pair: Pair, delayMs: number): void {
    clearTimeout(pair.retryTimer);
    pair.retries++;
    pair.retryTimer = setTimeout(() => {
      if (this.#pairs.get(pair.key) === pair && pair.state === 'failed') this.#requeue(pair);
    }, delayMs);
  }
}

/** The server merges an object written into the one it holds, so writes of objects merge; any other value replaces. */
function coalesce(values: unknown[]): unknown {
  return values.reduce((sum, value) => (isPlainObject(sum) && isPlainObject(value) ? { ...sum, ...value } : value));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why a frame is no longer sent: the server lost it `tries` times. */
function refusedAsInvalidJson(frame: 'subscribe' | 'unsubscribe' | 'write', tries: number): string {
  return `the director kept refusing the ${frame} frame as "Invalid JSON" (${tries} tries, a growing pause between them: it loses such a frame, or cannot read it)`;
}

function writeError(pair: Pair, reason: string): LiveUpdateError {
  return new LiveUpdateError(`${pair.property} on ${pair.object} was not written: ${reason}.`);
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
