import { EventEmitter } from 'node:events';
import { ClosedError, LiveUpdateError, reasonOf } from '../errors.js';
import type { Logger } from '../http/logger.js';
import { livePresets, type LiveRequest } from './presets.js';
import { LIVE_UPDATE_PATH } from './protocol.js';
import { DEFAULT_LIVE_TIMING, LiveSocket, type LinkStatus, type LiveSocketTiming } from './live-socket.js';
import type { LivenessTiming } from './liveness.js';
import { subscribeFirstKnown, subscribeRemoteMonitor, type Subscriber } from './resolved-requests.js';
import { Staleness } from './staleness.js';
import { SubscriptionRegistry, type Consumer, type LiveValue } from './subscription-registry.js';
import type { TlsOptions } from '../http/tls.js';

/**
 * One subscription's state: the link's (`connecting`, `online`, `offline`), or `stale` while the link is up but
 * this subscription's values stopped and asking again brought none. `offline` means no link to the server;
 * `stale` is this value only.
 */
export type LiveStatus = LinkStatus | 'stale';

/** The socket's timing and when a subscription counts as silent (docs/api-notes.md, "Live update"). */
export type LiveTiming = LiveSocketTiming & LivenessTiming;

export interface LiveSubscribeOptions {
  /**
   * Told the current status right after subscribing, `offline` the moment the stream drops, `stale` when this
   * subscription's values stopped while the stream stayed up (so nothing shows a stale value as live), and
   * `online` again.
   */
  onStatus?(status: LiveStatus): void;
  /** A refused subscription or a property that failed to evaluate. */
  onError?(error: LiveUpdateError): void;
}

const DEFAULT_INTERVAL_MS = 100;

/** One consumer's view of the stream. Close it when the value is no longer needed: leaks harm a production. */
export class LiveSubscription {
  #closed = false;

  constructor(
    private readonly readStatus: () => LiveStatus,
    private readonly release: () => void,
    private readonly writer: (value: unknown, property?: string) => Promise<void>,
  ) {}

  /**
   * Writes a value through the stream (brightness, volume, a layer property). Resolves once the write is sent;
   * the new value comes back as a value of this subscription. Numbers come back as 32-bit floats (0.95 reads
   * 0.949999988079071): compare with a tolerance. Rejects while the stream is down, so nothing lands late.
   * `property` picks one when the subscription watches several.
   */
  set(value: unknown, property?: string): Promise<void> {
    if (this.#closed) return Promise.reject(new LiveUpdateError('This live subscription is closed: subscribe again to write.'));
    return this.writer(value, property);
  }

  get status(): LiveStatus {
    return this.#closed ? 'offline' : this.readStatus();
  }

  get closed(): boolean {
    return this.#closed;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.release();
  }
}

interface LiveClientEvents {
  /** The link's status: never `stale`, which is a subscription's own. */
  status: [LinkStatus];
  /** A problem no subscription owns: a malformed frame, an unattributed server error. */
  problem: [LiveUpdateError];
}

/**
 * `ms.live`: one WebSocket per server, opened on the first subscription and closed with the last; every
 * subscription survives reconnects.
 */
export class LiveClient extends EventEmitter<LiveClientEvents> {
  readonly presets = livePresets;
  readonly #socket: LiveSocket;
  readonly #registry: SubscriptionRegistry;
  readonly #subscriptions = new Set<LiveSubscription>();
  readonly #statusListeners = new Set<() => void>();
  #status: LinkStatus = 'offline';
  #closed = false;

  /**
   * `origin` is read at every connect; `originKnown`, when given, resolves once it is worth connecting to (a
   * client following the director waits for the first look for it, rather than try a machine that is not it).
   */
  constructor(
    origin: () => string,
    timing: Partial<LiveTiming>,
    private readonly logger: Logger,
    private readonly originKnown: () => Promise<void> = () => Promise.resolve(),
    tls?: TlsOptions,
  ) {
    super();
    const url = (): string => origin().replace(/^http/, 'ws') + LIVE_UPDATE_PATH;
    this.#socket = new LiveSocket(url, { ...DEFAULT_LIVE_TIMING, ...timing }, {
      onOpen: () => {
        this.#registry.onOpen();
        this.#setStatus('online');
      },
      onClose: () => {
        // Offline first: the registry's clearing of stale marks must not tell anyone online on the way down.
        this.#setStatus('offline');
        this.#registry.onClose();
      },
      onFrame: (frame) => this.#registry.onFrame(frame),
      onProblem: (problem) => this.#problem(problem),
    }, logger, tls);
    this.#registry = new SubscriptionRegistry({
      send: (frame) => this.#socket.send(frame),
      isOpen: () => this.#socket.isOpen,
      now: () => performance.now(),
      onProblem: (problem) => this.#problem(problem),
    }, timing);
  }

  /** The link's status; a subscription's own `status` can also be `stale`. */
  get status(): LinkStatus {
    return this.#status;
  }

  subscribe(request: LiveRequest, onValue: (value: LiveValue) => void, options: LiveSubscribeOptions = {}): LiveSubscription {
    if (this.#closed) throw new ClosedError('This media-server client is closed: create a new one to subscribe.');
    checkRequest(request);
    const onError = (error: LiveUpdateError): void => this.#safely(() => options.onError?.(error));
    const staleness = new Staleness(() => tellStatus());
    const plain: Subscriber = { subscribe: (each, onEach, onEachError) => this.#subscribeToPair(each, onEach, onEachError, staleness) };
    const { remoteMonitor, otherObjects } = request;
    const handle = remoteMonitor
      ? subscribeRemoteMonitor(plain, { ...request, remoteMonitor }, onValue, onError)
      : otherObjects?.length
        ? subscribeFirstKnown(plain, { ...request, otherObjects }, onValue, onError)
        : this.#subscribeToPair(request, onValue, onError, staleness);
    const { subscription, tellStatus } = this.#withStatus(handle, options, staleness);
    return subscription;
  }

  /** Subscribes one object's properties as the request names them. */
  #subscribeToPair(request: LiveRequest, onValue: (value: LiveValue) => void, onError: (error: LiveUpdateError) => void, staleness: Staleness): LiveSubscription {
    const { object, properties, intervalMs } = checkRequest(request);
    const stalePairs = new Set<string>();
    const consumer: Consumer = {
      intervalMs,
      onValue: (value) => this.#safely(() => onValue(value)),
      onError,
      onStale: (stale, pair) => {
        if (stale) stalePairs.add(pair);
        else stalePairs.delete(pair);
        staleness.mark(pair, stale);
      },
    };
    const write = (value: unknown, property?: string): Promise<void> => {
      const target = property ?? (properties.length === 1 ? properties[0] : undefined);
      if (target === undefined || !properties.includes(target)) {
        return Promise.reject(new LiveUpdateError(`Say which property to write: one of ${properties.join(', ')}.`));
      }
      return this.#registry.write(object, target, value);
    };
    const subscription = this.#track(() => {
      for (const property of properties) this.#registry.remove(object, property, consumer);
      staleness.release([...stalePairs]);
      if (this.#registry.size === 0) this.#goIdle();
    }, write, () => this.#status);
    for (const property of properties) this.#registry.add(object, property, consumer);
    if (!this.#socket.isStarted) {
      this.#setStatus('connecting');
      void this.#openWhenOriginKnown();
    }
    return subscription;
  }

  #track(release: () => void, write: (value: unknown, property?: string) => Promise<void>, readStatus: () => LiveStatus): LiveSubscription {
    const subscription = new LiveSubscription(readStatus, () => {
      this.#subscriptions.delete(subscription);
      release();
    }, write);
    this.#subscriptions.add(subscription);
    return subscription;
  }

  /**
   * The consumer's own subscription: its status is the link's, or `stale` while the link is up and one of its
   * pairs is; told now and on every change, released with what it holds.
   */
  #withStatus(handle: Pick<LiveSubscription, 'close' | 'set'>, options: LiveSubscribeOptions, staleness: Staleness) {
    const status = (): LiveStatus => (this.#status === 'online' && staleness.isStale ? 'stale' : this.#status);
    let told: LiveStatus | undefined;
    const tellStatus = (): void => {
      if (subscription.closed || told === undefined || status() === told) return;
      told = status();
      this.#safely(() => options.onStatus?.(told as LiveStatus));
    };
    this.#statusListeners.add(tellStatus);
    const subscription = this.#track(() => {
      this.#statusListeners.delete(tellStatus);
      handle.close();
    }, (value, property) => handle.set(value, property), status);
    // A consumer joining a shared socket learns where it stands without waiting for the next change.
    queueMicrotask(() => {
      if (subscription.closed) return;
      told = status();
      this.#safely(() => options.onStatus?.(told as LiveStatus));
    });
    return { subscription, tellStatus };
  }

  /** Closes every subscription and the socket; resolves when the socket is gone. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const subscription of [...this.#subscriptions]) subscription.close();
    this.#registry.dispose();
    await this.#socket.stop();
  }

  /** Connects again at once, e.g. because the director moved. */
  reconnect(): void {
    this.#socket.reconnectNow();
  }

  async #openWhenOriginKnown(): Promise<void> {
    try {
      await this.originKnown();
    } catch (error) {
      // The machine the client was given is then the best guess; a director found later moves the socket.
      this.logger.warn(`live update: the look for the director failed (${reasonOf(error)}); connecting meanwhile.`, { code: 'LIVE_DIRECTOR_LOOK_FAILED', facts: { reason: reasonOf(error) }, error });
    }
    if (!this.#closed && this.#registry.size > 0) this.#socket.start();
  }

  #goIdle(): void {
    // Let the unsubscribe frame go out before the socket closes.
    setImmediate(() => {
      if (this.#registry.size > 0) return;
      this.#setStatus('offline');
      this.#socket.stop().catch((error: unknown) => this.logger.warn(`live update: closing failed: ${String(error)}`, { code: 'LIVE_CLOSE_FAILED', facts: { reason: reasonOf(error) }, error }));
    });
  }

  #setStatus(status: LinkStatus): void {
    if (status === this.#status) return;
    this.#status = status;
    // One listener that throws must not keep the others from hearing of it.
    // Raw listeners: a `once` listener is called through its wrapper, which removes it.
    for (const listener of this.rawListeners('status')) this.#safely(() => listener.call(this, status));
    for (const listener of this.#statusListeners) listener();
  }

  #problem(problem: LiveUpdateError): void {
    this.logger.warn(problem.message, { code: 'LIVE_PROBLEM', facts: { reason: problem.message }, error: problem });
    this.emit('problem', problem);
  }

  /** A consumer's callback that throws must not stop the others or the stream. */
  #safely(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.#problem(new LiveUpdateError(`A live-update consumer threw: ${reasonOf(error)}`));
    }
  }
}

function checkRequest(request: LiveRequest): { object: string; properties: string[]; intervalMs: number } {
  const { object, properties, updateFrequencyMs = DEFAULT_INTERVAL_MS } = request ?? ({} as LiveRequest);
  if (typeof object !== 'string' || object.trim() === '') {
    throw new LiveUpdateError('A live subscription needs an object expression, e.g. subsystem:MonitoringManager.findLocalMonitor("fps").');
  }
  if (!Array.isArray(properties) || properties.length === 0 || properties.some((p) => typeof p !== 'string' || p.trim() === '')) {
    throw new LiveUpdateError('A live subscription needs at least one property expression, e.g. object.seriesAverage("Actual", 1).');
  }
  if (typeof updateFrequencyMs !== 'number' || !Number.isFinite(updateFrequencyMs) || updateFrequencyMs < 0) {
    throw new LiveUpdateError(`updateFrequencyMs must be a number of milliseconds, 0 or more (got ${String(updateFrequencyMs)}).`);
  }
  return { object, properties: [...new Set(properties)], intervalMs: updateFrequencyMs };
}
