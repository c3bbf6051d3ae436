import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { LIVE_UPDATE_PATH } from '@stagelink/core/protocol';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LiveWorld } from './expressions.js';
import { LiveSession, type SentValue, type SubscribedValue } from './live-session.js';
import { SilentLive, type SilentLiveRule } from './silent-live.js';

interface LiveSwitches {
  /** Answer upgrades with 503. */
  refuseUpgrades: boolean;
  /** Accept the TCP connection and never answer the upgrade, as a server still starting up does. */
  stallUpgrades: boolean;
  /** Neither read nor send, nor answer new upgrades: a hung server (pings go unanswered too). */
  paused: boolean;
  /** Send a value only when it changed, as a real director does (the default); otherwise at every interval. */
  onChangeOnly: boolean;
  /** How late `subscriptions` lists and `error` frames go out; 0 is on time. */
  lateAnswersMs: number;
  /**
   * Lose every client frame and answer each `{"error": "Invalid JSON"}`, as a director does with a frame it lost or
   * cannot read (it says nothing of which).
   */
  loseFrames: boolean;
}

export interface LiveFaults extends LiveSwitches {
  /** A client frame this soon after the socket's previous one, unanswered, is refused (see BackToBack); 0 is off. */
  backToBackMs: number;
  /** How much longer upgrades are held (accepted, never answered) by `holdUpgrades`; 0 when they are answered. */
  holdUpgradesMs: number;
  /** Object patterns whose subscriptions are acknowledged but not fed (after some values). */
  silentLive: SilentLiveRule[];
}

const ON_TIME: LiveSwitches = { refuseUpgrades: false, stallUpgrades: false, paused: false, onChangeOnly: true, lateAnswersMs: 0, loseFrames: false };

export interface LiveStats {
  sockets: number;
  /** Server subscriptions over every socket; identical pairs on one socket count once. */
  subscriptions: number;
  /** Subscribe requests still held over every socket: a client that shares one value sends one. */
  references: number;
  /** Upgrade requests received, answered or not: shows clients retrying. */
  upgradeAttempts: number;
  /** Client frames received over every socket, lost or not, since start or the last reset: what a client sends. */
  framesReceived: number;
  /** Client frames refused as back to back (`backToBackMs`) over every socket, since start or the last reset. */
  rejectedFrames: number;
  /** Frames sent (values, lists, errors) over every socket, since start or the last reset: what a client costs the director. */
  framesSent: number;
  /** Every server subscription over every socket, with the interval it sends at. */
  subscribed: SubscribedValue[];
}

/**
 * The live-update endpoint of one simulated machine, on the machine's HTTP server, with the faults tests
 * and demos need.
 */
export class LiveUpdateServer {
  readonly #switches: LiveSwitches = { ...ON_TIME };
  readonly #silence = new SilentLive();
  // Frames that arrive in one read are handled in one turn (ws's default, set here because BackToBack relies on it).
  readonly #wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, allowSynchronousEvents: true });
  readonly #sessions = new Map<WebSocket, LiveSession>();
  readonly #stalled = new Set<Socket>();
  readonly #valueListeners = new Set<(value: SentValue) => void>();
  #upgradeAttempts = 0;
  #rejectedFrames = 0;
  #framesReceived = 0;
  #framesSent = 0;
  #backToBackMs: number;
  /** Until when (performance.now()) upgrades are held; 0 when none are. */
  #holdUntil = 0;

  /** `backToBackMs`: the window at start and after clearFaults (BACK_TO_BACK_MS has each dialect's). */
  constructor(
    private readonly world: LiveWorld,
    private readonly seed: number,
    private readonly defaults: { backToBackMs: number } = { backToBackMs: 0 },
  ) {
    this.#backToBackMs = defaults.backToBackMs;
  }

  /**
   * Serves the endpoint on a machine's HTTP server. `serves` says whether that machine runs the session's
   * application now; a machine that is not the director answers upgrades with 503.
   */
  attach(server: Server, serves: () => boolean = () => true): void {
    server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => this.#upgrade(request, socket, head, serves()));
  }

  stats(): LiveStats {
    let subscriptions = 0;
    let references = 0;
    const subscribed: SubscribedValue[] = [];
    for (const session of this.#sessions.values()) {
      subscriptions += session.subscriptionCount;
      references += session.referenceCount;
      subscribed.push(...session.subscribed);
    }
    return { sockets: this.#sessions.size, subscriptions, references, upgradeAttempts: this.#upgradeAttempts, framesReceived: this.#framesReceived, rejectedFrames: this.#rejectedFrames, framesSent: this.#framesSent, subscribed };
  }

  /** The faults switched on now, as the control summary shows them. */
  get faults(): LiveFaults {
    return { ...this.#switches, backToBackMs: this.#backToBackMs, holdUpgradesMs: this.#heldForMs(), silentLive: this.#silence.rules() };
  }

  /**
   * Tells `listener` every value as it goes out, on any socket, right before its frame is handed to the socket:
   * a benchmark times a value's way from the director from here. Answers a function that stops it.
   */
  onValueSent(listener: (value: SentValue) => void): () => void {
    this.#valueListeners.add(listener);
    return () => void this.#valueListeners.delete(listener);
  }

  dropSockets(): void {
    for (const socket of this.#sessions.keys()) socket.terminate();
    this.#releaseStalled();
  }

  setRefuseUpgrades(on: boolean): void {
    this.#switches.refuseUpgrades = on;
  }

  setStallUpgrades(on: boolean): void {
    this.#switches.stallUpgrades = on;
    if (!on && !this.#switches.paused) this.#releaseStalled();
  }

  /**
   * For the next `ms`, upgrades are accepted and never answered, as a director still starting up does; those
   * sockets stay unanswered until the client gives up (or dropSockets, close). Upgrades after the window are
   * answered. 0 ends a hold.
   */
  holdUpgrades(ms: number): void {
    this.#holdUntil = ms > 0 ? performance.now() + ms : 0;
  }

  /** Client frames closer than `ms` to the previous one, with no answer between, are refused and lost; 0 is off. */
  setBackToBack(ms: number): void {
    this.#backToBackMs = ms;
  }

  /** Every client frame is lost and answered `{"error": "Invalid JSON"}` while `on`. */
  setLoseFrames(on: boolean): void {
    this.#switches.loseFrames = on;
  }

  setPaused(on: boolean): void {
    this.#switches.paused = on;
    for (const socket of this.#sessions.keys()) {
      const raw = (socket as unknown as { _socket?: Socket })._socket;
      if (on) raw?.pause();
      else raw?.resume();
    }
    if (!on && !this.#switches.stallUpgrades) this.#releaseStalled();
  }

  /** Sends a frame that is not JSON to every client. */
  sendMalformedFrame(): void {
    for (const socket of this.#sessions.keys()) socket.send('{"valuesChanged": [');
  }

  /** Subscriptions whose object contains `pattern` (any case) get `afterValues` values, then none until `on` is false. */
  setSilent(pattern: string, on: boolean, afterValues = 0, property?: string): void {
    this.#silence.set(pattern, on, afterValues, property);
  }

  setOnChangeOnly(on: boolean): void {
    this.#switches.onChangeOnly = on;
  }

  /** Lists and errors go out `ms` late, in order; values do not wait. */
  setLateAnswers(ms: number): void {
    this.#switches.lateAnswersMs = ms;
  }

  clearFaults(): void {
    this.setRefuseUpgrades(false);
    this.setStallUpgrades(false);
    this.setPaused(false);
    this.#silence.clear();
    this.setOnChangeOnly(ON_TIME.onChangeOnly);
    this.setLateAnswers(ON_TIME.lateAnswersMs);
    this.setLoseFrames(ON_TIME.loseFrames);
    this.setBackToBack(this.defaults.backToBackMs);
    this.holdUpgrades(0);
    this.#rejectedFrames = 0;
    this.#framesReceived = 0;
    this.#framesSent = 0;
  }

  close(): void {
    this.dropSockets();
    this.#wss.close();
  }

  #upgrade(request: IncomingMessage, socket: Socket, head: Buffer, serves: boolean): void {
    socket.on('error', () => socket.destroy());
    const path = new URL(request.url ?? '/', 'http://simulator').pathname;
    if (path !== LIVE_UPDATE_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    this.#upgradeAttempts++;
    if (this.#switches.refuseUpgrades || !serves) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
      return;
    }
    if (this.#switches.stallUpgrades || this.#switches.paused || this.#heldForMs() > 0) {
      this.#stalled.add(socket);
      socket.on('close', () => this.#stalled.delete(socket));
      return;
    }
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#accept(ws));
  }

  #accept(ws: WebSocket): void {
    const session = new LiveSession(ws, {
      world: this.world,
      seed: this.seed,
      isPaused: () => this.#switches.paused,
      feeds: (object, property) => this.#silence.feeds(object, property),
      onChangeOnly: () => this.#switches.onChangeOnly,
      lateAnswersMs: () => this.#switches.lateAnswersMs,
      backToBackMs: () => this.#backToBackMs,
      losesFrames: () => this.#switches.loseFrames,
      frameReceived: () => void this.#framesReceived++,
      frameRejected: () => void this.#rejectedFrames++,
      frameSent: () => void this.#framesSent++,
      now: () => Date.now(),
      valueSent: (value) => {
        for (const listener of this.#valueListeners) listener(value);
      },
    });
    this.#sessions.set(ws, session);
    ws.on('close', () => this.#sessions.delete(ws));
  }

  #heldForMs(): number {
    return Math.max(0, Math.ceil(this.#holdUntil - performance.now()));
  }

  #releaseStalled(): void {
    for (const socket of this.#stalled) socket.destroy();
    this.#stalled.clear();
  }
}
