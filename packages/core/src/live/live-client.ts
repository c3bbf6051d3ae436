import { EventEmitter } from 'node:events';
import { ClosedError, LiveUpdateError, reasonOf } from '../errors.js';
import type { Logger } from '../http/logger.js';
import { livePresets, type LiveRequest } from './presets.js';
import { LIVE_UPDATE_PATH } from './protocol.js';
import { DEFAULT_LIVE_TIMING, LiveSocket, type LiveSocketTiming, type LiveStatus } from './live-socket.js';
import { subscribeFirstKnown, subscribeRemoteMonitor, type Subscriber } from './resolved-requests.js';
import { SubscriptionRegistry, type Consumer, type LiveValue } from './subscription-registry.js';
import type { TlsOptions } from '../http/tls.js';

export interface LiveSubscribeOptions {
  /**
   * Told the current status right after subscribing, `offline` the moment the stream drops (so nothing shows a
   * stale value as live), and `online` again.
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
    private readonly client: LiveClient,
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
    return this.#closed ? 'offline' : this.client.status;
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
  status: [LiveStatus];
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
  readonly #statusListeners = new Set<(status: LiveStatus) => void>();
  #status: LiveStatus = 'offline';
  #closed = false;

  /**
   * `origin` is read at every connect; `originKnown`, when given, resolves once it is worth connecting to (a
   * client following the director waits for the first look for it, rather than try a machine that is not it).
   */
  constructor(
    origin: () => string,
    timing: Partial<LiveSocketTiming>,
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
        this.#registry.onClose();
        this.#setStatus('offline');
      },
      onFrame: (frame) => this.#registry.onFrame(frame),
      onProblem: (problem) => this.#problem(problem),
    }, logger, tls);
    this.#registry = new SubscriptionRegistry({
      send: (frame) => this.#socket.send(frame),
      isOpen: () => this.#socket.isOpen,
      now: () => performance.now(),
      onProblem: (problem) => this.#problem(problem),
    });
  }

  get status(): LiveStatus {
    return this.#status;
  }

  subscribe(request: LiveRequest, onValue: (value: LiveValue) => void, options: LiveSubscribeOptions = {}): LiveSubscription {
    if (this.#closed) throw new ClosedError('This media-server client is closed: create a new one to subscribe.');
    checkRequest(request);
    const onError = (error: LiveUpdateError): void => this.#safely(() => options.onError?.(error));
    const plain: Subscriber = { subscribe: (each, onEach, onEachError) => this.#subscribeToPair(each, onEach, onEachError) };
    const { remoteMonitor, otherObjects } = request;
    const handle = remoteMonitor
      ? subscribeRemoteMonitor(plain, { ...request, remoteMonitor }, onValue, onError)
      : otherObjects?.length
        ? subscribeFirstKnown(plain, { ...request, otherObjects }, onValue, onError)
        : this.#subscribeToPair(request, onValue, onError);
    return this.#withStatus(handle, options);
  }

  /** Subscribes one object's properties as the request names them. */
  #subscribeToPair(request: LiveRequest, onValue: (value: LiveValue) => void, onError: (error: LiveUpdateError) => void): LiveSubscription {
    const { object, properties, intervalMs } = checkRequest(request);
    const consumer: Consumer = { intervalMs, lastDelivery: -Infinity, onValue: (value) => this.#safely(() => onValue(value)), onError };
    const write = (value: unknown, property?: string): Promise<void> => {
      const target = property ?? (properties.length === 1 ? properties[0] : undefined);
      if (target === undefined || !properties.includes(target)) {
        return Promise.reject(new LiveUpdateError(`Say which property to write: one of ${properties.join(', ')}.`));
      }
      return this.#registry.write(object, target, value);
    };
    const subscription = this.#track(() => {
      for (const property of properties) this.#registry.remove(object, property, consumer);
      if (this.#registry.size === 0) this.#goIdle();
    }, write);
    for (const property of properties) this.#registry.add(object, property, consumer);
    if (!this.#socket.isStarted) {
      this.#setStatus('connecting');
      void this.#openWhenOriginKnown();
    }
    return subscription;
  }

  #track(release: () => void, write: (value: unknown, property?: string) => Promise<void>): LiveSubscription {
    const subscription = new LiveSubscription(this, () => {
      this.#subscriptions.delete(subscription);
      release();
    }, write);
    this.#subscriptions.add(subscription);
    return subscription;
  }

  /** The consumer's own subscription: told the status now and on every change, released with what it holds. */
  #withStatus(handle: Pick<LiveSubscription, 'close' | 'set'>, options: LiveSubscribeOptions): LiveSubscription {
    const onStatus = (status: LiveStatus): void => this.#safely(() => options.onStatus?.(status));
    this.#statusListeners.add(onStatus);
    const subscription = this.#track(() => {
      this.#statusListeners.delete(onStatus);
      handle.close();
    }, (value, property) => handle.set(value, property));
    // A consumer joining a shared socket learns where it stands without waiting for the next change.
    queueMicrotask(() => {
      if (!subscription.closed) onStatus(this.#status);
    });
    return subscription;
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
      this.logger.warn(`live update: the look for the director failed (${reasonOf(error)}); connecting meanwhile.`);
    }
    if (!this.#closed && this.#registry.size > 0) this.#socket.start();
  }

  #goIdle(): void {
    // Let the unsubscribe frame go out before the socket closes.
    setImmediate(() => {
      if (this.#registry.size > 0) return;
      this.#setStatus('offline');
      this.#socket.stop().catch((error: unknown) => this.logger.warn(`live update: closing failed: ${String(error)}`));
    });
  }

  #setStatus(status: LiveStatus): void {
    if (status === this.#status) return;
    this.#status = status;
    this.emit('status', status);
    for (const listener of this.#statusListeners) listener(status);
  }

  #problem(problem: LiveUpdateError): void {
    this.logger.warn(problem.message);
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
