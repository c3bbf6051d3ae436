import WebSocket from 'ws';
import { LiveUpdateError, reasonOf } from '../errors.js';
import type { Logger } from '../http/logger.js';
import type { ClientFrame, ServerFrame } from './protocol.js';
import { ReconnectBackoff } from './reconnect-backoff.js';
import type { TlsOptions } from '../http/tls.js';

/**
 * The link's state: `connecting` while a first connection is made; after that the socket is either up
 * (`online`) or not (`offline`, also when nothing is subscribed).
 */
export type LinkStatus = 'connecting' | 'online' | 'offline';

export interface LiveSocketTiming {
  /** A server can accept TCP while starting up and never answer the upgrade. */
  connectTimeoutMs: number;
  /** Ping interval; a socket that has not answered the previous ping by the next one is dead. */
  heartbeatMs: number;
  reconnectBaseMs: number;
  /** Ceiling of the full-jitter back-off between reconnect attempts, reached within a minute of an outage. */
  reconnectCapMs: number;
}

export const DEFAULT_LIVE_TIMING: LiveSocketTiming = {
  connectTimeoutMs: 5000,
  heartbeatMs: 10_000,
  reconnectBaseMs: 100,
  reconnectCapMs: 30_000,
};

/** How long a closing socket may wait for the server's close frame before it is cut. */
const CLOSE_GRACE_MS = 1000;

export interface LiveSocketHandlers {
  onOpen(): void;
  onClose(): void;
  onFrame(frame: ServerFrame): void;
  onProblem(problem: LiveUpdateError): void;
}

/**
 * One WebSocket that keeps itself connected while started: connect timeout, ping/pong heartbeat, and
 * reconnects on the schedule of ReconnectBackoff. The URL is read at each attempt, so it can follow a
 * director that moved.
 */
export class LiveSocket {
  #ws: WebSocket | undefined;
  #started = false;
  readonly #backoff: ReconnectBackoff;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #heartbeatTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: () => string,
    private readonly timing: LiveSocketTiming,
    private readonly handlers: LiveSocketHandlers,
    private readonly logger: Logger,
    private readonly tls?: TlsOptions,
  ) {
    this.#backoff = new ReconnectBackoff(timing);
  }

  get isOpen(): boolean {
    return this.#ws?.readyState === WebSocket.OPEN;
  }

  get isStarted(): boolean {
    return this.#started;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#connect();
  }

  /** Closes the socket and cancels every timer; resolves once the socket is gone. Safe to call more than once. */
  async stop(): Promise<void> {
    this.#started = false;
    clearTimeout(this.#reconnectTimer);
    await this.#dropSocket();
  }

  /** Drops the current socket and connects again at once, e.g. to a new director. */
  reconnectNow(): void {
    if (!this.#started) return;
    this.#backoff.reset();
    clearTimeout(this.#reconnectTimer);
    if (this.#ws) this.#ws.terminate();
    else this.#connect();
  }

  send(frame: ClientFrame): boolean {
    if (!this.isOpen) return false;
    this.#ws?.send(JSON.stringify(frame));
    return true;
  }

  #connect(): void {
    const ws = new WebSocket(this.url(), { handshakeTimeout: this.timing.connectTimeoutMs, perMessageDeflate: false, ...this.tls });
    this.#ws = ws;
    let alive = true;
    ws.on('open', () => {
      this.#backoff.opened();
      this.#startHeartbeat(ws, () => alive, (value) => (alive = value));
      this.#notify(() => this.handlers.onOpen());
    });
    ws.on('pong', () => (alive = true));
    ws.on('message', (data: WebSocket.RawData) => {
      alive = true;
      this.#receive(data);
    });
    // Every failure (refused, handshake timeout, reset) is followed by 'close', which reconnects.
    ws.on('error', (error) => this.logger.debug?.(`live update ${this.url()}: ${error.message}`));
    ws.on('close', () => this.#onClose(ws));
  }

  #startHeartbeat(ws: WebSocket, isAlive: () => boolean, setAlive: (alive: boolean) => void): void {
    clearInterval(this.#heartbeatTimer);
    this.#heartbeatTimer = setInterval(() => {
      if (!isAlive()) {
        this.logger.warn(`live update ${this.url()}: no answer to the last ping, reconnecting.`, { code: 'LIVE_PING_UNANSWERED', facts: { url: this.url() } });
        ws.terminate();
        return;
      }
      setAlive(false);
      ws.ping();
    }, this.timing.heartbeatMs);
  }

  #receive(data: WebSocket.RawData): void {
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8');
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      this.handlers.onProblem(new LiveUpdateError(`The live-update stream of ${this.url()} sent a frame that is not JSON; it was ignored: ${text.slice(0, 80)}`));
      return;
    }
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
      this.handlers.onProblem(new LiveUpdateError(`The live-update stream of ${this.url()} sent a frame that is not an object; it was ignored.`));
      return;
    }
    try {
      this.handlers.onFrame(frame);
    } catch (error) {
      // Thrown inside the socket's message event it would be an uncaught exception: it ends Node-RED.
      const reason = reasonOf(error);
      this.handlers.onProblem(new LiveUpdateError(`A frame of the live-update stream of ${this.url()} could not be handled and was ignored (${reason}): ${text.slice(0, 80)}`));
    }
  }

  #onClose(ws: WebSocket): void {
    if (this.#ws !== ws) return;
    clearInterval(this.#heartbeatTimer);
    this.#ws = undefined;
    // Scheduled before anyone is told: a listener that throws must not stop the reconnect for good.
    if (this.#started) this.#scheduleReconnect();
    this.#notify(() => this.handlers.onClose());
  }

  /** A handler that throws inside a socket event would be an uncaught exception: it ends the host process. */
  #notify(handler: () => void): void {
    try {
      handler();
    } catch (error) {
      this.handlers.onProblem(new LiveUpdateError(`The live-update stream of ${this.url()} could not tell its listeners (${reasonOf(error)}).`));
    }
  }

  #scheduleReconnect(): void {
    this.#reconnectTimer = setTimeout(() => this.#connect(), this.#backoff.nextDelay());
  }

  #dropSocket(): Promise<void> {
    clearInterval(this.#heartbeatTimer);
    const ws = this.#ws;
    this.#ws = undefined;
    if (!ws || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    ws.removeAllListeners('message');
    return new Promise((resolve) => {
      const fallback = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
      ws.once('close', () => {
        clearTimeout(fallback);
        resolve();
      });
      // A socket still connecting cannot be closed gracefully; an open one flushes what was sent first.
      if (ws.readyState === WebSocket.OPEN) ws.close(1000);
      else ws.terminate();
    });
  }
}
