import { EventEmitter } from 'node:events';
import { DirectorFollower, type DirectorChange } from '../discovery/director-follower.js';
import { checkedHostMap, queryDirector, type HostMap } from '../discovery/query.js';
import { InvalidInputError, NotOfferedError } from '../errors.js';
import { originOf } from '../http/host.js';
import { HttpClient } from '../http/http-client.js';
import type { TlsOptions } from '../http/tls.js';
import { silentLogger, type Logger } from '../http/logger.js';
import { API_DESCRIPTION_PATH, readApiDescription, type ApiDescription } from './api-description.js';
import { DescribedCommands, commandOf, describedCommands, describedSpec, type CommandName, type DirectorDescription } from './described-commands.js';
import { ColourApi } from './colour.js';
import type { EndpointSpec } from './catalogue.js';
import { EndpointCaller, type CallOptions, type EndpointInput, type GuardedCallOptions } from './endpoint-caller.js';
import { FailoverApi } from './failover.js';
import { HardwareApi } from './hardware.js';
import { HardwareTargets, refusingWrites, type HardwareCallOptions, type HardwareMachine, type MachineHardware, type SmcMap } from './hardware-targets.js';
import { SmcClient, type SmcOptions } from './smc-client.js';
import { LinkWatch, type LinkDown } from './link-watch.js';
import { LooksApi } from './looks.js';
import { MediaApi } from './media.js';
import { MixedRealityApi } from './mixed-reality.js';
import { NotesApi } from './notes.js';
import { QuickcalApi } from './quickcal.js';
import { RenderStreamApi } from './renderstream.js';
import { OmnicalApi, PythonApi, SockpuppetApi } from './show-tools.js';
import { SequencingApi } from './sequencing.js';
import { ShotRecorderApi } from './shot-recorder.js';
import { StatusApi } from './status.js';
import { SystemApi } from './system.js';
import { TransportApi } from './transport.js';
import { TransportMemory } from './transport-memory.js';
import { LiveClient } from '../live/live-client.js';
import type { LiveTiming } from '../live/live-client.js';
import { DEFAULT_LIVENESS_TIMING, silenceWindowMs, type LivenessTiming } from '../live/liveness.js';
import { ShowClocks } from '../show-clock/show-clocks.js';
import { CLOCK_INTERVAL_MS } from '../show-clock/transport-clock.js';

/**
 * How long a cue waits, while the server is known down, for the server to answer one question: a director on
 * the show network answers in milliseconds, and an operator must hear of a cue that did not fire at once.
 */
const DEFAULT_LINK_PROBE_TIMEOUT_MS = 150;

export interface MediaServerOptions {
  /** A hostname, `host:port` or `http://` URL; the port defaults to 80. */
  host: string;
  /** Deadline of one call, retries included (default 5000 ms). */
  timeoutMs?: number;
  /** Retries of a retryable failure (default 2). */
  retries?: number;
  /**
   * While the server is known not to answer, a cue first asks it one question with this deadline, and is refused
   * at once, unsent, when no answer comes (default 150 ms: a director on the show network answers in
   * milliseconds). Raise it for a director reached over a slower link.
   */
  linkProbeTimeoutMs?: number;
  logger?: Logger;
  /**
   * Live-update timing: connect timeout, heartbeat, reconnect back-off, and when a quiet subscription is asked
   * again and reported stale.
   */
  live?: Partial<LiveTiming>;
  /**
   * Send every request to the director of the session, found from `host`, and follow it when the role
   * moves to another machine (default false). Hardware reads without a named machine then also go to the director;
   * hardware writes never do (see `hardwareOf`).
   */
  followDirector?: boolean;
  /**
   * More machines of the session (an understudy, an editor), each a hostname, `host:port` or URL, asked in order
   * after `host` when looking for the director, so it is found while `host` is off. Needs `followDirector`.
   */
  backupHosts?: readonly string[];
  /**
   * Addresses of machines by hostname (any case), for hostnames the control desk cannot resolve, e.g.
   * `{ DIRECTOR01: '10.0.0.5', ACTOR01: '10.0.0.6' }`. Without it, a director out of reach by name is still used
   * at `host` when `host` is the director.
   */
  hosts?: HostMap;
  /**
   * Also look for the director among the machines the session announces over DNS-SD, when no machine known leads
   * to it: a machine's announced address then stands for its name (a shipping machine's name, `ACTOR01`, often
   * resolves nowhere on the desk). Joins the mDNS group (UDP 5353) on the show network, so it is off by default.
   * Needs `followDirector`.
   */
  dnssd?: boolean;
  /** The interface DNS-SD multicasts on, e.g. `127.0.0.1`; all interfaces when absent. */
  dnssdInterface?: string;
  /**
   * Where `ms.hardware` goes: one machine's management controller and its account, reads and writes. Without it,
   * `ms.hardware` reads go to the session's address as the API documents show, and its writes are refused
   * (HardwareTargetError): name the machine with `hardwareOf`.
   */
  smc?: Omit<SmcOptions, 'logger'>;
  /**
   * Each machine's management controller and account, by the hostname the session gives the machine (any case),
   * e.g. `{ ACTOR01: { host: '10.0.1.6', username: 'admin', password } }`: where `hardwareOf('ACTOR01')` goes.
   * `parseSmcMap` reads it from settings text.
   */
  smcs?: SmcMap;
  /**
   * Let `python/execute` and `python/registermodule` be sent (each still needs `{ confirm: true }`). They run
   * arbitrary code on the director without a login, so they are refused unsent by default.
   */
  allowPython?: boolean;
  /** How to trust an `https://` host's certificate (a venue CA, a self-signed one): requests and live stream. */
  tls?: TlsOptions;
}

interface MediaServerEvents {
  /** The director was found, or moved: HTTP and live update now go to this machine. */
  director: [DirectorChange];
}

/**
 * One media server: every endpoint family of the spec, grouped as the spec groups them, over one keep-alive
 * connection pool, and the live-update stream. Close it when done.
 */
export class MediaServer extends EventEmitter<MediaServerEvents> {
  /** The machine this client was pointed at. */
  readonly host: string;
  readonly status: StatusApi;
  readonly transport: TransportApi;
  readonly mixedReality: MixedRealityApi;
  readonly quickcal: QuickcalApi;
  readonly failover: FailoverApi;
  readonly sequencing: SequencingApi;
  readonly notes: NotesApi;
  readonly shotRecorder: ShotRecorderApi;
  readonly looks: LooksApi;
  readonly colour: ColourApi;
  readonly media: MediaApi;
  readonly system: SystemApi;
  readonly hardware: HardwareApi;
  /** RenderStream layers and their workloads (shipping builds; not in the API documents). */
  readonly renderstream: RenderStreamApi;
  readonly sockpuppet: SockpuppetApi;
  readonly omnical: OmnicalApi;
  /** Off unless the client has `allowPython: true`; every call needs `{ confirm: true }`. */
  readonly python: PythonApi;
  /** The live-update stream: one socket, shared by every subscription. */
  readonly live: LiveClient;
  readonly #api: EndpointCaller;
  readonly #link: LinkWatch;
  readonly #http: HttpClient;
  readonly #director: DirectorFollower | undefined;
  readonly #smc: SmcClient | undefined;
  readonly #clocks: ShowClocks;
  readonly #machines: HardwareTargets;
  readonly #described: DescribedCommands;

  constructor(options: MediaServerOptions) {
    super();
    this.host = originOf(options.host);
    const logger = options.logger ?? silentLogger;
    // Every address a user typed is checked before anything starts: a typo is an error now, never a timer's later.
    const hosts = checkedHostMap(options.hosts);
    const backupOrigins = backupOriginsOf(options);
    this.#machines = new HardwareTargets({
      origin: this.host,
      hosts,
      smcs: options.smcs,
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      tls: options.tls,
      logger,
    });
    this.#smc = options.smc ? new SmcClient({ ...options.smc, timeoutMs: options.smc.timeoutMs ?? options.timeoutMs, logger }) : undefined;
    this.#http = new HttpClient({ baseUrl: this.host, timeoutMs: options.timeoutMs, retries: options.retries, tls: options.tls });
    this.#director = options.followDirector
      ? new DirectorFollower(this.host, (change, moved) => this.#follow(change, moved), logger, {
          hosts,
          tls: options.tls,
          backupOrigins,
          ...(options.dnssd ? { dnssd: { interface: options.dnssdInterface } } : {}),
        })
      : undefined;
    // Asked, without retries, before a cue while the link is down: the session is what every director serves.
    const link: LinkWatch = new LinkWatch(() => queryDirector(this.origin, { timeoutMs: options.linkProbeTimeoutMs ?? DEFAULT_LINK_PROBE_TIMEOUT_MS, tls: options.tls }));
    const transports = new TransportMemory();
    this.#described = new DescribedCommands(this.#http);
    const api = new EndpointCaller(this.#http, this.#director, link, transports, this.#described, options.allowPython === true);
    this.#link = link;
    this.status = new StatusApi(api);
    const clocks = new ShowClocks(
      {
        subscribe: (...args) => this.live.subscribe(...args),
        transports: () => this.transport.transports(),
        tracks: () => this.transport.tracks(),
        annotations: (track) => this.transport.annotations(track),
      },
      clockTiming(options.live),
      logger,
    );
    this.#clocks = clocks;
    this.transport = new TransportApi(api, transports, clocks);
    this.mixedReality = new MixedRealityApi(api);
    this.quickcal = new QuickcalApi(api);
    this.failover = new FailoverApi(api);
    this.sequencing = new SequencingApi(api);
    this.notes = new NotesApi(api);
    this.shotRecorder = new ShotRecorderApi(api);
    this.looks = new LooksApi(api);
    this.colour = new ColourApi(api);
    this.media = new MediaApi(api);
    this.system = new SystemApi(api);
    this.renderstream = new RenderStreamApi(api, logger);
    this.sockpuppet = new SockpuppetApi(api);
    this.omnical = new OmnicalApi(api);
    this.python = new PythonApi(api);
    this.hardware = this.#smc ?? new HardwareApi(refusingWrites(api), logger);
    this.#api = api;
    const director = this.#director;
    // A write held for its subscription's id fails within the call's deadline when that is the shorter.
    const live = { heldWriteMs: Math.min(DEFAULT_LIVENESS_TIMING.heldWriteMs, options.timeoutMs ?? Infinity), ...options.live };
    this.live = new LiveClient(() => this.origin, live, logger, director ? () => director.ready() : undefined, options.tls);
    this.live.on('status', (status) => {
      // A dropped stream is often the first sign that the director went away, or reloaded its project, which can
      // change what it offers: the description is read again once the stream is back.
      if (status === 'offline') {
        this.#described.forget();
        void this.#director?.check();
      }
      if (status === 'online') this.#described.refresh();
    });
  }

  /** Where requests go now: the director when following it, otherwise `host`. */
  get origin(): string {
    return this.#director?.current ?? this.host;
  }

  /**
   * The hardware family of one machine: power, OLED, LED strip, whoami and the rest go to that machine's
   * management controller, wherever the director role moves. `machine` is the hostname the session lists it by
   * (its SMC from `smcs`, else its own address from `hosts` or its name), or `{ host, username, password }` of its
   * SMC. One connection pool per machine, closed by `close()`.
   */
  hardwareOf(machine: HardwareMachine): MachineHardware {
    return this.#machines.of(machine);
  }

  /**
   * Sends any endpoint of the catalogue, as the typed methods do: what the Node-RED request node uses. A hardware
   * endpoint goes to `options.machine` when given (see `hardwareOf`), else as `ms.hardware` sends it: hardware
   * writes need a machine unless the client has `smc`.
   */
  call<T>(spec: EndpointSpec, input?: EndpointInput, options?: HardwareCallOptions): Promise<T> {
    const { machine, ...rest } = options ?? {};
    if (spec.family !== 'hardware') {
      if (machine !== undefined) return Promise.reject(new InvalidInputError(`${spec.group}.${spec.operation} goes to the session, not to a machine named for it: leave machine out.`));
      return this.#api.call<T>(spec, input, rest);
    }
    if (machine !== undefined) return callOn(() => this.#machines.of(machine), spec, input, rest);
    if (this.#smc) return this.#smc.call<T>(spec, input, rest);
    return refusingWrites(this.#api).call<T>(spec, input, rest);
  }

  /**
   * Sends a command this director describes, named by method and path as `describe()` lists it: a command of a
   * build newer than core's catalogue, say. The body is checked against the description's schema first (a field
   * it does not describe, a wrong type or a missing one is refused unsent, with where); a command core knows keeps
   * its guards (`{ confirm: true }`). Answers the director's whole answer. NotOfferedError when the build does not
   * describe its API, NotDescribedError when it does not describe this command.
   */
  async callDescribed<T = unknown>(command: CommandName, body?: unknown, options?: GuardedCallOptions): Promise<T> {
    const named = commandOf(command);
    await this.#director?.ready();
    const description = await this.#described.description(options);
    if (!description) throw new NotOfferedError(`${this.origin} does not describe its API: send its commands by their typed methods or \`call\`.`, 404, undefined, { method: named.method, url: this.origin + named.path });
    const spec = describedSpec(description, named, body);
    return this.#api.call<T>(spec, body === undefined ? {} : { body }, options);
  }

  /** Since when and why the server has not been answering; undefined while it answers. Cues are refused at once meanwhile. */
  get linkDown(): LinkDown | undefined {
    return this.#link.down;
  }

  /** The director as last found when following it; undefined until found (or when not following). */
  get director(): DirectorChange | undefined {
    return this.#director?.director;
  }

  /**
   * The build's own description of its API: which commands this director offers (a front end can hide the
   * others). NotOfferedError when the build has none.
   */
  async apiDescription(options?: CallOptions): Promise<ApiDescription> {
    await this.#director?.ready();
    return readApiDescription(this.#http, options);
  }

  /**
   * What this director offers, from its own description: title, version and every command, `known` when core's
   * catalogue has it. Read once per director and kept (read again after the director changes, or once the live
   * stream is back after a drop, as a project reload makes it); once read, a catalogue command it lacks is refused
   * unsent (NotDescribedError). NotOfferedError when the build has no description: its commands are the API
   * documents', and nothing is refused for it.
   */
  async describe(options?: CallOptions): Promise<DirectorDescription> {
    await this.#director?.ready();
    const description = await this.#described.description(options);
    if (!description) {
      throw new NotOfferedError(`${this.origin} does not describe its API: its commands are those of the API documents.`, 404, undefined, { method: 'GET', url: this.origin + API_DESCRIPTION_PATH });
    }
    return {
      ...(description.title !== undefined ? { title: description.title } : {}),
      ...(description.version !== undefined ? { version: description.version } : {}),
      commands: describedCommands(description),
    };
  }

  /**
   * Forgets the description read, so the next `describe()` reads it again: after a project reload, which can
   * change what the director offers. A director change does this by itself, and so does a dropped live stream (a
   * reload or restart drops it): a description read before is read again once the stream is back.
   */
  forgetDescription(): void {
    this.#described.forget();
  }

  #follow(change: DirectorChange, moved: boolean): void {
    if (moved) {
      this.#described.forget();
      this.#http.baseUrl = change.url;
      // The new director has just answered the follower: cues may go to it at once.
      this.#link.observe(undefined);
      this.live.reconnect();
    }
    this.emit('director', change);
  }

  /** Closes every live subscription, the live socket and the connection pool. Safe to call more than once. */
  async close(): Promise<void> {
    this.#director?.stop();
    this.#clocks.close();
    this.renderstream.close();
    await Promise.all([this.live.close(), this.#http.close(), this.#smc?.close(), this.#machines.close()]);
  }
}

/** A playhead standing still while playing is stale after the silence bound of its live values. */
function clockTiming(live: Partial<LivenessTiming> | undefined) {
  const timing = { ...DEFAULT_LIVENESS_TIMING, ...live };
  return { frozenAfterMs: silenceWindowMs(CLOCK_INTERVAL_MS, timing), annotationsEveryMs: 5000, retryMs: 5000 };
}

function backupOriginsOf({ backupHosts = [], followDirector, dnssd }: MediaServerOptions): string[] {
  if (dnssd && !followDirector) throw new InvalidInputError('dnssd is used when looking for the director: set followDirector to true to use it.');
  if (!Array.isArray(backupHosts)) throw new InvalidInputError('backupHosts must be a list of addresses, e.g. ["10.0.0.6", "10.0.0.7:8080"].');
  if (backupHosts.length > 0 && !followDirector) {
    throw new InvalidInputError('backupHosts are asked when looking for the director: set followDirector to true to use them.');
  }
  return backupHosts.map((host) => originOf(host));
}

/** A machine that names nothing usable is a rejected call, as every other refusal of `call` is. */
async function callOn<T>(machine: () => MachineHardware, spec: EndpointSpec, input: EndpointInput | undefined, options: GuardedCallOptions): Promise<T> {
  return machine().call<T>(spec, input, options);
}
