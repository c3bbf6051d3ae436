/**
 * Everything the module knows of one session, shared by its actions, feedbacks and variables: one MediaServer
 * (following the director), one cue lane (cues land in the order they were pressed), the reads asked again and
 * again (session, health, transports) and the live values of every machine and transport. Machines and
 * transports follow the session as it changes; their variable ids are given once and kept for the session.
 */
import {
  type AuthError,
  CueLane,
  DEFAULT_HARDWARE_EVERY_MS,
  InvalidInputError,
  type HealthEntry,
  type Logger,
  MediaServer,
  type MediaServerOptions,
  type Multitransport,
  multitransportMembers,
  type SessionInfo,
  sessionMachines,
  type Track,
  type Transport,
  VariableIds,
} from '@stagelink/core';
import { type CueOutcome, cueOutcomeOf } from '../desk/cue-outcome.js';
import { MachineWatch } from './machine-watch.js';
import { Poll } from './poll.js';
import { HardwareHealthWatch } from './hardware-watch.js';
import { PowerWatch } from './power-watch.js';
import { OfferedCommands } from './offered-commands.js';
import { RenderStreamWatch } from './renderstream-watch.js';
import { TransportWatch } from './transport-watch.js';

export interface TransportList {
  transports: Transport[];
  multitransports: Multitransport[];
}

export interface ShowOptions {
  server: MediaServerOptions;
  logger: Logger;
  /** Told when anything shown may have changed; `structure` when machines or transports came or went. */
  onChange: (structure: boolean) => void;
  /**
   * Told when a machine's SMC refused the account at a power read (`refusal`), or answered one (undefined): by
   * hostname as the settings give it.
   */
  onSmcLogin?: (hostname: string, refusal: AuthError | undefined) => void;
  /** How often each machine's SMC is read for its hardware health (15 s by default; never under 1 s). */
  hardwareEveryMs?: number;
  /** Builds the client; tests may pass their own. */
  create?: (options: MediaServerOptions) => MediaServer;
}

/** A desk wants a restarted server back within seconds: a lower reconnect cap than core's default. */
const LIVE_TIMING = { connectTimeoutMs: 3000, heartbeatMs: 5000, reconnectBaseMs: 200, reconnectCapMs: 3000 };
/** Each request's deadline: a cue must fail fast at the desk. */
const TIMEOUT_MS = 4000;
/** A cue that waited this long behind others is not sent: at the desk a late cue is worse than a refused one. */
const CUE_MAX_WAIT_MS = 3000;
/**
 * Cues given at most this far apart are one burst, as the actions of one button's step are (Companion runs them at
 * once; on a busy computer they may still arrive a few hundred milliseconds apart). Each may wait one request
 * timeout longer than the one before it (core's burst budget), so a long button lands whole on a slow director.
 */
const CUE_BURST_GAP_MS = 500;
const SESSION_EVERY_MS = 5000;
const HEALTH_EVERY_MS = 3000;
const TRANSPORTS_EVERY_MS = 1000;
/** The track list changes when the project is edited, not during the show. */
const TRACKS_EVERY_MS = 30_000;

export class Show {
  readonly server: MediaServer;
  readonly cues: CueLane;
  readonly session: Poll<SessionInfo>;
  readonly health: Poll<HealthEntry[]>;
  readonly transportList: Poll<TransportList>;
  /** The project's tracks, for the actions' dropdowns. */
  readonly tracks: Poll<Track[]>;
  /** By machine uid. */
  readonly machines = new Map<string, MachineWatch>();
  /** By transport name. */
  readonly transports = new Map<string, TransportWatch>();
  /** The power of each machine with a management controller in the settings, by hostname as the settings give it. */
  readonly power = new Map<string, PowerWatch>();
  /** The hardware health of each machine with a management controller in the settings, by hostname as the settings give it. */
  readonly hardware = new Map<string, HardwareHealthWatch>();
  /** The RenderStream layers and their workloads: one watch for the connection. */
  readonly renderStream: RenderStreamWatch;
  /** What became of the last cue sent to each transport from here, by transport name. */
  readonly lastResults = new Map<string, CueOutcome>();
  /** Why the last cue sent from here failed, in core's words; '' after one that went through. */
  lastError = '';
  /** Counts the cues whose outcome was recorded: the last-cue feedback needs a check only when it moved. */
  cueCount = 0;
  /** The section each transport was last sent to by this module (the transports list does not report it). */
  readonly sections = new Map<string, number>();
  /** What the director's own description offers: the actions it lacks are named as such. */
  readonly offered: OfferedCommands;
  readonly #machineIds = new VariableIds();
  readonly #transportIds = new VariableIds();
  /** SMC lines named ACTOR-01 and ACTOR.01 must not share variables. */
  readonly #smcIds = new VariableIds();
  #linkWasUp = false;
  #closed = false;

  constructor(private readonly options: ShowOptions) {
    const create = options.create ?? ((serverOptions: MediaServerOptions) => new MediaServer(serverOptions));
    this.server = create({ timeoutMs: TIMEOUT_MS, live: LIVE_TIMING, logger: options.logger, ...options.server });
    this.cues = new CueLane({
      linkDown: () => this.server.linkDown,
      maxWaitMs: CUE_MAX_WAIT_MS,
      burstGapMs: CUE_BURST_GAP_MS,
      stepAllowanceMs: options.server.timeoutMs ?? TIMEOUT_MS,
      name: this.server.host,
    });
    this.session = new Poll(async (signal) => this.server.status.session({ signal }), SESSION_EVERY_MS, () => this.#onSession());
    this.health = new Poll(async (signal) => this.server.status.health({ signal }), HEALTH_EVERY_MS, () => this.#changed(false));
    this.transportList = new Poll(async (signal) => this.server.transport.transports({ signal }), TRANSPORTS_EVERY_MS, () => this.#onTransports());
    this.tracks = new Poll(async (signal) => this.server.transport.tracks({ signal }), TRACKS_EVERY_MS, () => this.#onTracks());
    this.renderStream = new RenderStreamWatch(this.server, options.logger, (structure) => this.#changed(structure));
    this.offered = new OfferedCommands(this.server, options.logger, () => this.#changed(true));
    this.server.live.on('status', (status) => {
      if (status === 'online') {
        this.#linkWasUp = true;
        // Back after a drop: the director may have restarted on a build that has RenderStream.
        this.renderStream.recheck();
        // A restart or a project reload drops the stream and may change the build: what it offers is read again.
        this.offered.read();
      }
      this.#changed(false);
    });
    for (const hostname of Object.keys(options.server.smcs ?? {})) {
      const onLogin = (refusal: AuthError | undefined) => (this.#closed ? undefined : options.onSmcLogin?.(hostname, refusal));
      const id = this.#smcIds.idOf(hostname);
      this.power.set(hostname, new PowerWatch(hostname, id, this.server, () => this.#changed(false), onLogin));
      this.hardware.set(hostname, new HardwareHealthWatch(hostname, id, this.server, options.hardwareEveryMs ?? DEFAULT_HARDWARE_EVERY_MS, () => this.#changed(false)));
    }
    this.server.live.on('problem', (problem) => options.logger.warn(`Live updates: ${problem.message}`));
    this.server.on('director', ({ hostname, previous }) => {
      if (previous !== undefined) options.logger.warn(`The director moved from ${previous} to ${hostname}: cues and live values follow it.`);
      this.session.refresh();
      this.renderStream.recheck();
      this.offered.forget();
      this.offered.read();
    });
  }

  start(): void {
    this.session.start();
    this.health.start();
    this.transportList.start();
    this.tracks.start();
    this.renderStream.start();
    this.offered.read();
    for (const watch of this.power.values()) watch.start();
    for (const watch of this.hardware.values()) watch.start();
  }

  /** Records what became of a cue to a transport (`error` undefined when it went through), and shows it. */
  recordCue(transport: string, error: unknown, describe: (error: unknown) => string): void {
    this.lastResults.set(transport, cueOutcomeOf(error));
    this.lastError = error === undefined ? '' : describe(error);
    this.cueCount += 1;
    this.#changed(false);
  }

  /**
   * The multitransports of the last transports list, each with the names of its member transports (listed by uid
   * or by name: core reads both).
   */
  get multitransports(): { name: string; members: string[] }[] {
    const list = this.transportList.state.kind === 'waiting' ? undefined : this.transportList.state.value;
    if (!list) return [];
    return list.multitransports.map((multi) => ({ name: multi.name, members: multitransportMembers(list.transports, multi).map((transport) => transport.name) }));
  }

  /**
   * The watch that shows a transport picked by name: the transport's own, or for a multitransport its first
   * member's (core's clock of a multitransport is its first member's too).
   */
  watchOf(name: string): TransportWatch | undefined {
    const own = this.transports.get(name);
    if (own) return own;
    const first = this.multitransports.find((multi) => multi.name === name)?.members[0];
    return first === undefined ? undefined : this.transports.get(first);
  }

  /**
   * The transports the director reports active now (every member while a multitransport is); asked at the press.
   * Shipping directors may list several transports no multitransport joins (five of six in one project): which one
   * the operator chose cannot be told, so nothing is sent rather than a cue to all of them.
   */
  async activeTransports(): Promise<string[]> {
    const active = await this.server.transport.activeTransport({ failFast: true });
    const names = active.map((transport) => transport.name);
    if (names.length === 0) throw new InvalidInputError('The director reports no active transport: nothing was sent.');
    if (names.length > 1 && !this.#isMultitransport(names)) {
      throw new InvalidInputError(
        `The director reports ${names.length} transports active (${names.join(', ')}) and no multitransport joins them, so which one is meant cannot be told: nothing was sent. Pick the transport on the button.`,
      );
    }
    return names;
  }

  /** Whether `names` are exactly the members of one multitransport of the last transports list. */
  #isMultitransport(names: readonly string[]): boolean {
    const wanted = [...names].sort().join('\u0000');
    return this.multitransports.some(({ members }) => [...members].sort().join('\u0000') === wanted);
  }

  /** The power watch of a machine by hostname, in any case. */
  powerOf(hostname: string): PowerWatch | undefined {
    const wanted = hostname.toLowerCase();
    return [...this.power.values()].find((watch) => watch.hostname.toLowerCase() === wanted);
  }

  /** The hardware health watch of a machine by hostname, in any case. */
  hardwareOf(hostname: string): HardwareHealthWatch | undefined {
    const wanted = hostname.toLowerCase();
    return [...this.hardware.values()].find((watch) => watch.hostname.toLowerCase() === wanted);
  }

  /** Whether the live stream was ever up: before, a value not yet come is awaited, not missing. */
  get linkWasUp(): boolean {
    return this.#linkWasUp;
  }

  machineById(id: string): MachineWatch | undefined {
    return [...this.machines.values()].find((machine) => machine.id === id);
  }

  transportById(id: string): TransportWatch | undefined {
    return [...this.transports.values()].find((transport) => transport.id === id);
  }

  /** The transport's entry in the last transports list, if it is there. */
  transportNamed(name: string): Transport | undefined {
    return this.transportList.state.kind === 'waiting' ? undefined : this.transportList.state.value?.transports.find((transport) => transport.name === name);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.session.close();
    this.health.close();
    this.transportList.close();
    this.tracks.close();
    this.cues.close();
    this.renderStream.close();
    this.offered.close();
    for (const machine of this.machines.values()) machine.close();
    for (const transport of this.transports.values()) transport.close();
    for (const watch of this.power.values()) watch.close();
    for (const watch of this.hardware.values()) watch.close();
    this.power.clear();
    this.hardware.clear();
    this.machines.clear();
    this.transports.clear();
    await this.server.close();
  }

  #onSession(): void {
    const session = this.session.value;
    if (!session || this.#closed) return this.#changed(false);
    const members = sessionMachines(session);
    let structure = false;
    const present = new Set(members.map(({ machine }) => machine.uid));
    for (const [uid, watch] of this.machines) {
      const member = members.find(({ machine }) => machine.uid === uid);
      // A machine that left, or whose role moved (its FPS is watched another way as director), is watched anew.
      if (!present.has(uid) || member?.role !== watch.role || member.machine.hostname !== watch.hostname) {
        watch.close();
        this.machines.delete(uid);
        structure = true;
      }
    }
    for (const member of members) {
      if (this.machines.has(member.machine.uid)) continue;
      const id = this.#machineIds.idOf(member.machine.name || member.machine.hostname);
      this.machines.set(member.machine.uid, new MachineWatch(id, member, this.server, () => this.#changed(false), () => this.#linkWasUp));
      structure = true;
    }
    this.#changed(structure);
  }

  #onTransports(): void {
    const list = this.transportList.value;
    if (!list || this.#closed) return this.#changed(false);
    let structure = false;
    const names = new Set(list.transports.map((transport) => transport.name));
    for (const [name, watch] of this.transports) {
      if (names.has(name)) continue;
      watch.close();
      this.transports.delete(name);
      structure = true;
    }
    for (const name of names) {
      if (this.transports.has(name)) continue;
      this.transports.set(name, new TransportWatch(this.#transportIds.idOf(name), name, this.server, () => this.#changed(false), () => this.#linkWasUp));
      structure = true;
    }
    // The pickers offer the multitransports too: a new or renamed one is a change of the definitions.
    const multis = this.multitransports.map(({ name, members }) => `${name}=${members.join(',')}`).join('\u0000');
    if (multis !== this.#multitransportNames) {
      this.#multitransportNames = multis;
      structure = true;
    }
    this.#changed(structure);
  }

  #trackNames = '';
  #multitransportNames = '';

  #onTracks(): void {
    const names = (this.tracks.value ?? []).map((track) => track.name).join('\u0000');
    const structure = this.tracks.value !== undefined && names !== this.#trackNames;
    if (structure) this.#trackNames = names;
    this.#changed(structure);
  }

  #changed(structure: boolean): void {
    if (this.#closed) return;
    try {
      this.options.onChange(structure);
    } catch (error) {
      this.options.logger.warn(`Showing a change failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
