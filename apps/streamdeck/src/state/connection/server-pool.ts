/**
 * One MediaServer per host for every key of the plugin, with the polls the keys share: the session's health,
 * the transport list and the RenderStream layers. A host's client lives while some key holds a lease on it (and a short grace after,
 * so flipping pages does not rebuild connections); its polls run only while some key watches them. A client is
 * made with the director search it was asked with (the hosts map, backup addresses and DNS-SD: core takes them
 * once, when the client is made): a changed search gets a new client, and the old one closes once the keys have
 * moved to it.
 */
import {
  CueLane,
  type DirectorChange,
  type HealthEntry,
  type Logger,
  MediaServer,
  type MediaServerOptions,
  type Multitransport,
  originOf,
  reasonOf,
  type Transport,
} from '@stagelink/core';
import type { DirectorSearch } from '../../settings.js';
import { SharedHardware } from './shared-hardware.js';
import { SharedLayers } from './shared-layers.js';
import { type PollOptions, SharedPoll } from './shared-poll.js';

export interface TransportList {
  transports: Transport[];
  multitransports: Multitransport[];
}

export interface ServerLease {
  readonly origin: string;
  /** The origin and the director search the client follows the director with (see leaseKey). */
  readonly key: string;
  readonly server: MediaServer;
  /** `status/health`, polled every few seconds while a health key is on screen. */
  readonly health: SharedPoll<HealthEntry[]>;
  /** `transport/transports`, polled while a transport key or a level dial is on screen. */
  readonly transports: SharedPoll<TransportList>;
  /** Every cue to this server goes through it, so cues land in the order they were pressed. */
  readonly cues: CueLane;
  /** The machines' hardware watches, one per machine for every health key on this client. */
  readonly hardware: SharedHardware;
  /** The RenderStream layers and their workloads: one watch for every layer key on this client. */
  readonly layers: SharedLayers;
  /** The director's hostname before its last move and when it moved; undefined while it has not moved. */
  readonly directorMove: () => DirectorMove | undefined;
  /** Gives the lease back; the last one out closes the client after the grace period. Idempotent. */
  release(): void;
}

export interface DirectorMove {
  from: string;
  to: string;
  /** When the module saw it (ms, monotonic: `performance.now()`), to tell how long ago. */
  at: number;
}

/** A server's logger; `info` (when it has one) tells what is worth knowing without being a problem. */
export type ServerLogger = Logger & { info?(message: string): void };

export interface ServerPoolOptions {
  logger: Logger;
  /** The logger of one server's client and polls (default: `logger`), so its lines say which server. */
  serverLogger?: (host: string) => ServerLogger;
  healthIntervalMs?: number;
  transportsIntervalMs?: number;
  /** How long a client nobody holds stays open, in case a key for it appears again (page flips). */
  idleCloseMs?: number;
  /** Timeout of each request the plugin makes (a cue should fail fast at the desk). */
  timeoutMs?: number;
  /** Builds the client; tests pass a stand-in. */
  create?: (options: MediaServerOptions) => MediaServer;
}

interface Entry {
  key: string;
  origin: string;
  logger: ServerLogger;
  server: MediaServer;
  health: SharedPoll<HealthEntry[]>;
  transports: SharedPoll<TransportList>;
  cues: CueLane;
  hardware: SharedHardware;
  layers: SharedLayers;
  leases: number;
  idleTimer?: NodeJS.Timeout;
  directorMove?: DirectorMove;
  stopWatchingDirector: () => void;
}

/**
 * The live stream reconnects with back-off; a desk wants a restarted server back within seconds, so the cap
 * is lower than core's default. A few attempts a second at most, to a handful of servers, stays gentle.
 */
const LIVE_TIMING = { connectTimeoutMs: 3000, heartbeatMs: 5000, reconnectBaseMs: 200, reconnectCapMs: 3000 };

const DEFAULT_TIMEOUT_MS = 4000;
/** How long after a poll request's timeout its value is marked stale, if the timeout was not heard of by then. */
const STALE_MARGIN_MS = 1000;

/** A cue that waited this long behind others is not sent: at the desk a late cue is worse than a refused one. */
const CUE_MAX_WAIT_MS = 3000;
/**
 * Cues given at most this far apart are one burst, as the steps of a multi-action are (the app sends them at once;
 * on a busy computer they may still arrive a few hundred milliseconds apart).
 */
const CUE_BURST_GAP_MS = 500;

export class ServerPool {
  readonly #entries = new Map<string, Entry>();
  #closed = false;

  constructor(private readonly options: ServerPoolOptions) {}

  /**
   * A lease on the client of `host` (hostname, host:port or URL) that follows the director with `search`: the
   * addresses of machines whose names do not resolve, backup addresses asked after `host`, DNS-SD. Throws
   * InvalidInputError for a bad address.
   */
  acquire(host: string, search: DirectorSearch = {}): ServerLease {
    if (this.#closed) throw new Error('The plugin is shutting down.');
    const origin = originOf(host);
    const key = leaseKey(origin, search);
    const entry = this.#entries.get(key) ?? this.#open(key, origin, search);
    clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    entry.leases += 1;
    let released = false;
    return {
      origin,
      key,
      server: entry.server,
      health: entry.health,
      transports: entry.transports,
      cues: entry.cues,
      hardware: entry.hardware,
      layers: entry.layers,
      directorMove: () => entry.directorMove,
      release: () => {
        if (released) return;
        released = true;
        this.#release(entry);
      },
    };
  }

  /** Hosts with an open client, for tests and diagnostics (a host twice while a client of an older search closes). */
  get openOrigins(): string[] {
    return [...this.#entries.values()].map((entry) => entry.origin);
  }

  /**
   * A value is marked stale only once a request of the poll could have timed out, so that a key shows NO LINK
   * after the client itself knows the server does not answer, and a cue pressed then is refused at once.
   */
  #pollOptions(intervalMs: number, onListenerError: (error: unknown) => void): PollOptions {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return { intervalMs, staleAfterMs: Math.max(intervalMs * 3, intervalMs + timeoutMs + STALE_MARGIN_MS), onListenerError };
  }

  /**
   * The computer woke from sleep: sockets and requests from before may be dead without knowing it. Every poll
   * asks again at once and every live stream reconnects at once, instead of waiting for timeouts and back-off.
   */
  wake(): void {
    for (const entry of this.#entries.values()) {
      entry.logger.info?.('After a sleep: reading again and reconnecting live updates at once.');
      entry.health.restart();
      entry.transports.restart();
      entry.layers.refresh();
      entry.server.live.reconnect();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(entries.map((entry) => this.#closeEntry(entry)));
  }

  #open(key: string, origin: string, { hosts, backupHosts, dnssd, dnssdInterface }: DirectorSearch): Entry {
    const logger = this.options.serverLogger?.(origin.replace(/^https?:\/\//, '')) ?? this.options.logger;
    const create = this.options.create ?? ((options: MediaServerOptions) => new MediaServer(options));
    // Keys keep working through a director change: core finds the director and follows it, at the address the
    // hosts map gives where its name does not resolve; when `host` itself died, through the backup addresses or
    // the machines' DNS-SD announcements.
    const server = create({
      host: origin,
      timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      logger,
      live: LIVE_TIMING,
      followDirector: true,
      ...(hosts ? { hosts } : {}),
      ...(backupHosts && backupHosts.length > 0 ? { backupHosts } : {}),
      ...(dnssd ? { dnssd, ...(dnssdInterface ? { dnssdInterface } : {}) } : {}),
    });
    const onListenerError = (error: unknown): void => logger.warn(`A key failed to show a poll result: ${reasonOf(error)}`);
    const entry: Entry = {
      key,
      origin,
      logger,
      server,
      health: new SharedPoll((signal) => server.status.health({ signal }), this.#pollOptions(this.options.healthIntervalMs ?? 3000, onListenerError)),
      transports: new SharedPoll(
        (signal) => server.transport.transports({ signal }),
        this.#pollOptions(this.options.transportsIntervalMs ?? 2000, onListenerError),
      ),
      // The lane keeps the order, refuses at once while the server is known down, and gives each step of a
      // multi-action one request timeout more to wait than the step before it (core's burst budget).
      cues: new CueLane({
        linkDown: () => server.linkDown,
        name: origin,
        maxWaitMs: CUE_MAX_WAIT_MS,
        burstGapMs: CUE_BURST_GAP_MS,
        stepAllowanceMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      }),
      hardware: new SharedHardware(server, logger),
      layers: new SharedLayers(server, logger),
      leases: 0,
      stopWatchingDirector: () => server.off('director', onDirector),
    };
    // The operator is told when the director moves (the inspector says so for a while; core logs it); keys
    // just follow it.
    const onDirector = ({ hostname, previous }: DirectorChange): void => {
      if (previous !== undefined) entry.directorMove = { from: previous, to: hostname, at: performance.now() };
    };
    server.on('director', onDirector);
    this.#entries.set(key, entry);
    return entry;
  }

  #release(entry: Entry): void {
    entry.leases -= 1;
    if (entry.leases > 0 || this.#entries.get(entry.key) !== entry) return;
    entry.idleTimer = setTimeout(() => {
      if (entry.leases > 0 || this.#entries.get(entry.key) !== entry) return;
      this.#entries.delete(entry.key);
      void this.#closeEntry(entry);
    }, this.options.idleCloseMs ?? 30_000);
  }

  async #closeEntry(entry: Entry): Promise<void> {
    clearTimeout(entry.idleTimer);
    entry.stopWatchingDirector();
    entry.health.dispose();
    entry.transports.dispose();
    entry.cues.close();
    entry.hardware.close();
    entry.layers.close();
    try {
      await entry.server.close();
    } catch (error) {
      this.options.logger.warn(`Closing the client of ${entry.origin} failed: ${reasonOf(error)}`);
    }
  }
}

/**
 * Which client a lease is on: the origin, the hosts map in one spelling (names in lower case, as core matches
 * them, sorted), so the same map typed in another order or case shares the client, the backup addresses as origins
 * in their order (core asks them in that order), and DNS-SD on or off, with its interface. Two keys share a client
 * only when it looks for the director exactly as each of them asks.
 */
export function leaseKey(origin: string, { hosts, backupHosts = [], dnssd = false, dnssdInterface = '' }: DirectorSearch = {}): string {
  const entries = Object.entries(hosts ?? {}).map(([name, address]) => `${name.toLowerCase()}=${address}`);
  if (entries.length === 0 && backupHosts.length === 0 && !dnssd) return origin;
  return JSON.stringify([origin, entries.sort(), backupHosts.map((host) => originOf(host)), dnssd, dnssdInterface]);
}
