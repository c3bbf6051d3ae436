import {
  DriveClient,
  InvalidInputError,
  MediaServer,
  parseHostList,
  parseHostMap,
  parseInterfaceAddress,
  parseSmcMap,
  reasonOf,
  type DirectorChange,
  type Logger,
  type SmcAccounts,
  type SmcOptions,
  type TlsOptions,
} from '@stagelink/core';
import { sayError, sayingError } from './error-words.js';
import { sayLogEvent } from './log-words.js';
import type { Node, NodeAPI } from './node-red.js';
import { SharedLayerWatch, type LayersListener } from './layer-watch.js';
import { ServerStateWatch, type ServerStateListener } from './server-state.js';
import { say } from './words.js';

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
  /**
   * More machines of the session, one address a line or comma-separated, asked in order after `host` when looking
   * for the director (core's `backupHosts`): the director is found while `host` is off. Only with `followDirector`.
   */
  backupHosts?: string;
  /** Find machines by their DNS-SD announcements when none known leads to the director (core's `dnssd`). Only with `followDirector`. */
  dnssd?: boolean;
  /**
   * This computer's IPv4 address on the show network, where DNS-SD looks (core's `dnssdInterface`); blank for every
   * interface. Read only with `dnssd`: it belongs to that setting, and unticking DNS-SD must not break a deploy.
   */
  dnssdInterface?: string;
  /** One machine's management controller (SMC) and its account: where hardware nodes that name no machine go. */
  smc?: Omit<SmcOptions, 'logger' | 'timeoutMs' | 'retries'>;
  /** Each machine's SMC, `HOSTNAME=address` or `HOSTNAME=user@address` lines, for hardware nodes that name a machine. */
  smcs?: string;
  /** The SMC account of those lines: the default user and password, and each machine's own password. */
  smcAccounts?: SmcAccounts;
  /** From a `tls-config` node: how to trust an `https://` host. */
  tls?: TlsOptions;
  /** That `tls-config` node's id, so the editor can tell whether its dialog still uses the deployed one. */
  tlsNode?: string;
  logger: Logger;
  /** Told which machine directs the session once it is found, and again whenever the role moves. */
  onDirector?: (change: DirectorChange) => void;
}

/**
 * The client of one config node, made once from its settings. A setting that cannot make a client (a malformed
 * address, no token) must not stop the flow from starting: it is kept and thrown to every node that uses it.
 */
class ConfigConnection<Client extends { close(): Promise<void> }> {
  readonly #client: Client | undefined;
  readonly #problem: Error | undefined;
  #closing: Promise<void> | undefined;

  constructor(
    /** The config node as errors name it, e.g. "stagelink-server 10.0.0.5". */
    private readonly name: string,
    create: () => Client,
  ) {
    try {
      this.#client = create();
    } catch (error) {
      this.#problem = error instanceof Error ? error : new Error(String(error));
    }
  }

  /** The shared client; throws the configuration problem when there is none. */
  get client(): Client {
    if (this.#closing) throw sayingError(InvalidInputError, 'error.stopped', { name: this.name });
    if (!this.#client) throw this.#problem ?? sayingError(InvalidInputError, 'error.notConfigured', { name: this.name });
    return this.#client;
  }

  protected get made(): Client | undefined {
    return this.#client;
  }

  /** Why there is no client: the setting that could not make one. */
  get problem(): Error | undefined {
    return this.#client ? undefined : this.#problem;
  }

  /** Closes the client and everything it holds. Safe to call more than once. */
  close(): Promise<void> {
    this.#closing ??= this.#client?.close() ?? Promise.resolve();
    return this.#closing;
  }
}

/** The connection of one `stagelink-server` config node: one connection pool and one live-update socket. */
export class ServerConnection extends ConfigConnection<MediaServer> {
  readonly host: string;
  /** The id of the `tls-config` node it trusts servers by; empty for none. */
  readonly tlsNode: string;
  readonly followDirector: boolean;
  /** True when the config names one SMC (`smcHost`), where hardware nodes that name no machine go. */
  readonly hasSmc: boolean;

  constructor(options: ServerOptions) {
    super(`stagelink-server ${options.host}`, () => {
      const client = new MediaServer({
        host: options.host,
        followDirector: options.followDirector,
        ...findingDirector(options),
        hosts: parseHostMap(options.hosts ?? ''),
        smcs: parseSmcMap(options.smcs ?? '', options.smcAccounts),
        ...(options.smc ? { smc: options.smc } : {}),
        ...(options.tls ? { tls: options.tls } : {}),
        logger: options.logger,
      });
      if (options.onDirector) client.on('director', options.onDirector);
      return client;
    });
    this.host = options.host;
    this.tlsNode = options.tlsNode ?? '';
    this.followDirector = options.followDirector;
    this.hasSmc = options.smc !== undefined;
    this.#state = new ServerStateWatch(this.made);
    this.#layers = new SharedLayerWatch(this.made);
  }

  readonly #state: ServerStateWatch;
  readonly #layers: SharedLayerWatch;

  /**
   * Tells `listener` where the server stands now and whenever that changes (see ServerStateWatch); the server is
   * asked only while some node watches. Answers what stops the watching: call it in the node's close handler.
   */
  watch(listener: ServerStateListener): () => void {
    return this.#state.watch(listener);
  }

  /**
   * Tells `listener` each change of the RenderStream layers, from the one watch this server keeps for every node
   * (see SharedLayerWatch). Answers what stops it: call it in the node's close handler.
   */
  watchLayers(listener: LayersListener): () => void {
    return this.#layers.watch(listener);
  }

  /** How many nodes watch the layers now (the one watch is open only while some do). */
  get layerWatchers(): number {
    return this.#layers.watchers;
  }

  override close(): Promise<void> {
    this.#state.close();
    this.#layers.close();
    return super.close();
  }

  /** Human name for status lines and errors. */
  get label(): string {
    return this.made?.origin ?? this.host;
  }
}

/**
 * Where else the director is looked for: the backup hosts as core reads them, and DNS-SD on its interface. Both are
 * asked only when following the director; set without it they would do nothing, so the setting is refused with the
 * dialog's words.
 */
function findingDirector(options: ServerOptions): { backupHosts?: string[]; dnssd?: true; dnssdInterface?: string } {
  let backupHosts: string[];
  try {
    backupHosts = parseHostList(options.backupHosts ?? '');
  } catch (error) {
    throw sayingError(InvalidInputError, 'error.backupHosts', { reason: reasonOf(error) });
  }
  const dnssd = options.dnssd === true;
  if (!options.followDirector && (backupHosts.length > 0 || dnssd)) {
    throw sayingError(InvalidInputError, 'error.findsOnlyWithDirector', { setting: say(backupHosts.length > 0 ? 'label.backupHosts' : 'label.dnssd') });
  }
  return { ...(backupHosts.length > 0 ? { backupHosts } : {}), ...(dnssd ? { dnssd, ...dnssdInterfaceOf(options.dnssdInterface) } : {}) };
}

/** The DNS-SD interface as core takes it: `{}` for every interface; refused with the dialog's words when it is no IPv4 address. */
function dnssdInterfaceOf(text: string | undefined): { dnssdInterface?: string } {
  let address: string | undefined;
  try {
    address = parseInterfaceAddress(text);
  } catch {
    throw sayingError(InvalidInputError, 'error.dnssdInterface', { value: String(text).trim() });
  }
  return address === undefined ? {} : { dnssdInterface: address };
}

/** The client of one `stagelink-drive` config node. The token stays inside DriveClient's private fields. */
export class DriveConnection extends ConfigConnection<DriveClient> {
  constructor(
    readonly baseUrl: string,
    token: string | undefined,
    tls?: TlsOptions,
  ) {
    super(`stagelink-drive ${baseUrl}`, () => {
      if (!token) throw sayingError(InvalidInputError, 'error.noToken');
      return new DriveClient({ baseUrl, token, ...(tls ? { tls } : {}) });
    });
  }
}

/**
 * Closes a config node's connection when Node-RED closes the node (a deploy that replaces it, or a stop). A close
 * that fails is logged and never holds up the deploy. `what` names the connection's other end in that log line.
 */
export function closeWithNode(node: Node<never>, connection: { close(): Promise<void> }, what: () => string): void {
  node.on('close', (_removed, done) => {
    connection
      .close()
      .catch((error: unknown) => node.warn(say('log.closingFailed', { what: what(), reason: sayError(error) })))
      .finally(done);
  });
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
  throw sayingError(InvalidInputError, 'error.noServer');
}

export function driveConnection(RED: NodeAPI, id: unknown): DriveConnection {
  const node = typeof id === 'string' && id !== '' ? RED.nodes.getNode(id) : undefined;
  if (isConfigNode<DriveConfigNode>(node, 'stagelink-drive')) return node.connection;
  throw sayingError(InvalidInputError, 'error.noDrive');
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
    warn: (message, event) => node.warn(sayLogEvent(message, event)),
    debug: (message) => node.debug(message),
  };
}
