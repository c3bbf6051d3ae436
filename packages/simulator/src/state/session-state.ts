import type { HealthEntry, NotificationEntry, ProjectInfo, ServiceVfc } from '@stagelink/core';
import { systemClock, type Clock } from './clock.js';
import { Colour } from './colour.js';
import { Failover } from './failover.js';
import { Hardware } from './hardware/hardware.js';
import { healthEntries, type MachineReadings } from './health.js';
import { Looks } from './looks.js';
import type { MachineRoster } from './machines.js';
import { MediaLibrary } from './media-library.js';
import { MixedReality } from './mixed-reality.js';
import { NotesBook } from './notes.js';
import { notificationEntries, type Notice } from './notifications.js';
import { Provisioning } from './provisioning.js';
import { Quickcal } from './quickcal.js';
import { SeededRandom } from './random.js';
import { seedHardware, VFC_FIRMWARE } from './seed/hardware.js';
import { seedLibrary } from './seed/library.js';
import { seedSession } from './seed/session.js';
import { seedVenue } from './seed/venue.js';
import { SIDE_SCREENS_UID, moreTransports, seedShow } from './seed/show.js';
import { seedStage } from './seed/stage.js';
import { Sequencing } from './sequencing.js';
import { ShotRecorders } from './shot-recorder.js';
import { serviceVfcs, SystemInfo } from './system-info.js';
import { Transports } from './transports.js';
import { VENUE_MACHINES, type Dialect } from '../options.js';
import { LaterCommands } from './later-commands.js';
import { RenderStream } from './renderstream.js';
import { dialectWords, type DialectWords } from './dialect.js';
import { MAX_UINT64_UID, UidSource } from './uids.js';

/**
 * The scenarios the model builds; `session` is `demo` with every machine on a loopback alias; `venue` is a
 * director of `machines` machines.
 */
export type ModelScenario = 'demo' | 'solo' | 'session' | 'venue';

/** The project option without which a shipping director refuses `transport/speed`. */
export const SPEED_OPTION = 'enableTransportSpeedControl';

export interface SessionStateOptions {
  scenario: ModelScenario;
  /** `venue` only: the machines of the session, the director included (default 20). */
  machines?: number;
  /** `venue` only: the transports of the session, the demo show's three included (default 3). */
  transports?: number;
  seed: number;
  /** This machine's hostname: the address the simulator listens on. */
  hostname: string;
  /** How answers are worded; default `spec`. */
  dialect?: Dialect;
  clock?: Clock;
}

/**
 * Everything one simulated machine knows, built from the scenario and the seed: the same seed builds the same
 * show, uids and readings. Pure: no sockets, no timers.
 */
export class SessionState {
  readonly scenario: ModelScenario;
  readonly seed: number;
  readonly words: DialectWords;
  /** Project options turned on (by the `projectOption` control action). */
  readonly projectOptions = new Set<string>();
  /** FPS a test fixed for a machine (by hostname in lower case), read by its local and remote monitors alike. */
  readonly fixedFps = new Map<string, number>();
  readonly clock: Clock;
  readonly project: ProjectInfo;
  readonly machines: MachineRoster;
  readonly failover: Failover;
  readonly transports: Transports;
  readonly mixedReality: MixedReality;
  readonly quickcal: Quickcal;
  readonly sequencing: Sequencing;
  readonly notes: NotesBook;
  readonly shotRecorder: ShotRecorders;
  readonly looks: Looks;
  readonly colour: Colour;
  readonly media: MediaLibrary;
  readonly provisioning: Provisioning;
  readonly system: SystemInfo;
  readonly hardware: Hardware;
  readonly renderStream = new RenderStream();
  readonly laterCommands = new LaterCommands();
  readonly #readings: ReadonlyMap<string, MachineReadings>;
  readonly #notices: ReadonlyMap<string, readonly Notice[]>;
  readonly #addresses: ReadonlyMap<string, string>;

  constructor(options: SessionStateOptions) {
    this.scenario = options.scenario;
    this.seed = options.seed;
    this.words = dialectWords(options.dialect ?? 'spec');
    this.clock = options.clock ?? systemClock;
    const random = new SeededRandom(options.seed);
    const uids = new UidSource(random);
    uids.reserve(MAX_UINT64_UID);
    uids.reserve(SIDE_SCREENS_UID);

    // Seeds draw from one PRNG: keep this order, or the same seed builds a different show.
    const session =
      options.scenario === 'venue'
        ? seedVenue(options.machines ?? VENUE_MACHINES.default, options.hostname, uids, random, this.words.hostnames)
        : seedSession(options.scenario, options.hostname, uids, random, this.words.hostnames);
    const show = seedShow(uids, this.clock.now());
    const stage = seedStage(uids, random);
    const library = seedLibrary(uids, random);
    const localAddress = session.addresses.get(session.roster.local.uid) ?? '127.0.0.1';
    const hardware = seedHardware(session.roster.local, localAddress, options.scenario === 'solo', random);
    // Drawn after every other seed, so that a venue with more transports seeds the same uids for everything else.
    const extraTransports = options.scenario === 'venue' ? moreTransports(show, options.transports ?? show.transports.length, uids, this.clock.now()) : [];

    this.project = library.project;
    this.machines = session.roster;
    this.#addresses = session.addresses;
    this.failover = new Failover(session.roster, session.failover);
    this.#readings = session.readings;
    this.#notices = session.notices;
    this.transports = new Transports(this.clock, [...show.transports, ...extraTransports], show.multitransports, { name: show.activeName });
    this.mixedReality = new MixedReality(this.clock, random, uids, stage.mixedReality);
    this.quickcal = new Quickcal(random, stage.projectors, stage.referencePoints, stage.requiredLineups);
    this.sequencing = new Sequencing(library.indirections);
    this.notes = new NotesBook(uids, library.notes);
    this.shotRecorder = new ShotRecorders(library.recorder);
    this.looks = new Looks(library.looks);
    this.colour = new Colour(library.cdls);
    this.media = new MediaLibrary(this.clock, uids, library.mediaFiles);
    this.provisioning = new Provisioning(this.media, random, uids);
    this.system = new SystemInfo(session.roster, library.project.version, session.addresses, {
      osName: 'Windows 10 IoT Enterprise LTSC',
      osVersion: '10.0.19044',
      imageVersion: '2024.2',
    });
    this.hardware = new Hardware(this.clock, hardware, options.seed);
  }

  /**
   * The address a machine is reached at, by its hostname (any case). In the `session` scenario it is the loopback
   * alias its server listens on, whatever hostname the dialect gives it: nothing here resolves hostnames.
   */
  addressOf(hostname: string): string | undefined {
    const machine = this.machines.byHostname(hostname);
    return machine && this.#addresses.get(machine.uid);
  }

  health(): HealthEntry[] {
    return healthEntries(this.machines, this.#readings);
  }

  notifications(): NotificationEntry[] {
    return notificationEntries(this.machines, this.#notices);
  }

  serviceVfcs(): ServiceVfc[] {
    return serviceVfcs(this.hardware.vfcs(), VFC_FIRMWARE);
  }
}
