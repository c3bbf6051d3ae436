import { DriveClient, InvalidInputError, MediaServer, parseHostMap, type DirectorChange, type Logger, type SmcOptions, type TlsOptions } from '@stagelink/core';
import type { Node, NodeAPI } from './node-red.js';

/**
 * The config-node connection registry. A `stagelink-server` config node owns exactly one MediaServer (one HTTP
 * pool and one live-update socket); a `stagelink-drive` config node owns one DriveClient. Every node that uses
 * them finds them here through its `server` / `drive` setting, and never closes them: the config node does, in
 * its own close handler. A "modified nodes" deploy restarts the user nodes but keeps the config node, so the
 * client and its socket survive, and each user node releases only what it added (its live subscriptions).
 */

export interface ServerOptions {
  host: string;
  /** Send requests to the session's director, found from `host`, and follow it when the role moves (core logs each move). */
  followDirector: boolean;
  /** `HOSTNAME=address` lines for machine names this computer cannot resolve. */
  hosts?: string;
  /** The machine's management controller (SMC) and its account, for the hardware family. */
  smc?: Omit<SmcOptions, 'logger' | 'timeoutMs' | 'retries'>;
  /** From a `tls-config` node: how to trust an `https://` host. */
  tls?: TlsOptions;
  logger: Logger;
  /** Told which machine directs the session once it is found, and again whenever the role moves. */
  onDirector?: (change: DirectorChange) => void;
}

/** The connection of one `stagelink-server` config node. */
export class ServerConnection {
  readonly host: string;
  readonly followDirector: boolean;
  readonly #client: MediaServer | undefined;
  readonly #problem: Error | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: ServerOptions) {
    this.host = options.host;
    this.followDirector = options.followDirector;
    try {
      this.#client = new MediaServer({
        host: options.host,
        followDirector: options.followDirector,
        hosts: parseHostMap(options.hosts ?? ''),
        ...(options.smc ? { smc: options.smc } : {}),
        ...(options.tls ? { tls: options.tls } : {}),
        logger: options.logger,
      });
      if (options.onDirector) this.#client.on('director', options.onDirector);
    } catch (error) {
      // A bad address must not stop the flow from starting: every node that uses it reports it on use.
      this.#problem = error instanceof Error ? error : new Error(String(error));
    }
  }

  /** The shared client; throws the configuration problem (e.g. a malformed host) when there is none. */
  get client(): MediaServer {
    if (this.#closing) throw new InvalidInputError(`The stagelink-server ${this.host} has been stopped by a deploy.`);
    if (!this.#client) throw this.#problem ?? new InvalidInputError('The stagelink-server has no address.');
    return this.#client;
  }

  /** Human name for status lines and errors. */
  get label(): string {
    return this.#client?.origin ?? this.host;
  }

  /** Closes every live subscription, the live socket and the connection pool. Safe to call more than once. */
  close(): Promise<void> {
    this.#closing ??= this.#client?.close() ?? Promise.resolve();
    return this.#closing;
  }
}

/** The client of one `stagelink-drive` config node. The token stays inside DriveClient's private fields. */
export class DriveConnection {
  readonly baseUrl: string;
  readonly #client: DriveClient | undefined;
  readonly #problem: Error | undefined;
  #closing: Promise<void> | undefined;

  constructor(baseUrl: string, token: string | undefined, tls?: TlsOptions) {
    this.baseUrl = baseUrl;
    try {
      if (!token) throw new InvalidInputError('The stagelink-drive has no API token: open it and paste the token from Settings > Integrations.');
      this.#client = new DriveClient({ baseUrl, token, ...(tls ? { tls } : {}) });
    } catch (error) {
      this.#problem = error instanceof Error ? error : new Error(String(error));
    }
  }

  get client(): DriveClient {
    if (this.#closing) throw new InvalidInputError(`The stagelink-drive ${this.baseUrl} has been stopped by a deploy.`);
    if (!this.#client) throw this.#problem ?? new InvalidInputError('The stagelink-drive is not configured.');
    return this.#client;
  }

  close(): Promise<void> {
    this.#closing ??= this.#client?.close() ?? Promise.resolve();
    return this.#closing;
  }
}

/** What the config nodes expose to the others. */
export interface ServerConfigNode extends Node<never> {
  connection: ServerConnection;
}

export interface DriveConfigNode extends Node<never> {
  connection: DriveConnection;
}

/**
 * The connection of the `stagelink-server` a node refers to. Throws a message that says what to fix: the
 * caller reports it on each message rather than failing at deploy.
 */
export function serverConnection(RED: NodeAPI, id: unknown): ServerConnection {
  const node = typeof id === 'string' && id !== '' ? RED.nodes.getNode(id) : undefined;
  if (isConfigNode<ServerConfigNode>(node, 'stagelink-server')) return node.connection;
  throw new InvalidInputError('No media server configured: open the node and choose or add a stagelink-server.');
}

export function driveConnection(RED: NodeAPI, id: unknown): DriveConnection {
  const node = typeof id === 'string' && id !== '' ? RED.nodes.getNode(id) : undefined;
  if (isConfigNode<DriveConfigNode>(node, 'stagelink-drive')) return node.connection;
  throw new InvalidInputError('No drive configured: open the node and choose or add a stagelink-drive.');
}

function isConfigNode<T extends { connection: unknown }>(node: unknown, type: string): node is T {
  // Duck-typed on purpose: no reliance on one copy of this module being shared between node files.
  if (typeof node !== 'object' || node === null || (node as { type?: unknown }).type !== type) return false;
  const connection = (node as { connection?: { close?: unknown } }).connection;
  return typeof connection?.close === 'function';
}

/** What Node-RED's `tls-config` node offers: it fills a TLS options object from its certificate settings. */
interface TlsConfigNode {
  addTLSOptions(options: Record<string, unknown>): Record<string, unknown>;
}

/** The TLS options of the `tls-config` node a config node refers to; undefined when it refers to none. */
export function tlsOptions(RED: NodeAPI, id: unknown): TlsOptions | undefined {
  if (typeof id !== 'string' || id === '') return undefined;
  const node = RED.nodes.getNode(id);
  if (typeof (node as Partial<TlsConfigNode> | undefined)?.addTLSOptions !== 'function') return undefined;
  return (node as TlsConfigNode).addTLSOptions({});
}

/** Routes core's log lines to the config node's log. */
export function nodeLogger(node: Node<never>): Logger {
  return {
    warn: (message) => node.warn(message),
    debug: (message) => node.debug(message),
  };
}
