import type { LedStrip, LocalMachine, NetworkAdapter, SessionRole, VideoFormattingCard } from '@stagelink/core';
import type { Clock } from '../clock.js';
import { invalidArgument } from '../refusal.js';
import { Chassis } from './chassis.js';
import { MachineSensors } from './machine-sensors.js';
import { NetworkAdapters } from './network-adapters.js';
import { Oled } from './oled.js';
import { Smc } from './smc.js';

/** Roles `POST /api/session` accepts (the spec does not list them). */
export const SESSION_ROLES = ['director', 'actor', 'understudy', 'solo'] as const;

export interface HardwareSetup {
  smc: Record<string, string>;
  vfcs: VideoFormattingCard[];
  localMachine: LocalMachine;
  role: SessionRole;
  adapters: NetworkAdapter[];
  chassisReadings: Record<string, string>;
}

/** The hardware family of this machine. */
export class Hardware {
  /**
   * Writes answer 401 until a login is made. The spec does not show the login mechanism: the control action
   * `login` stands in for it. Machines start logged out.
   */
  loggedIn = false;
  /** Clearing the SMC database erases its user accounts: the management controller's account stops working. */
  accountsErased = false;
  readonly smc: Smc;
  readonly adapters: NetworkAdapters;
  readonly chassis: Chassis;
  readonly oled: Oled;
  /** The rear LED strip (not in the documents; shipping SMCs have it). */
  ledStrip: LedStrip = { ledMode: 'static', ledR: 0, ledG: 114, ledB: 178 };
  #vfcs: VideoFormattingCard[];
  #localMachine: LocalMachine;
  #role: SessionRole;
  /** Each machine's sensors and faults, by hostname in lower case, made when first read. */
  readonly #sensors = new Map<string, MachineSensors>();
  /** Machines whose management controller hears requests and never answers them (`smcSilent`), with the requests held. */
  readonly #silent = new Map<string, Set<() => void>>();

  constructor(
    private readonly clock: Clock,
    setup: HardwareSetup,
    private readonly seed = 0,
  ) {
    this.smc = new Smc(setup.smc);
    this.adapters = new NetworkAdapters(setup.adapters);
    this.chassis = new Chassis(setup.chassisReadings);
    this.oled = new Oled(clock);
    this.#vfcs = setup.vfcs.map((card) => ({ ...card }));
    this.#localMachine = { ...setup.localMachine };
    this.#role = { ...setup.role };
  }

  /** One machine's fans, temperatures and faults (the chassis power is one for all, as the rest of this state). */
  sensorsOf(hostname: string): MachineSensors {
    const key = hostname.toLowerCase();
    let sensors = this.#sensors.get(key);
    if (!sensors) {
      sensors = new MachineSensors(this.seed, key, this.clock);
      this.#sensors.set(key, sensors);
    }
    return sensors;
  }

  /** `chassis/stats` as one machine's SMC answers it now. */
  statsOf(hostname: string): Record<string, string> {
    return { ...this.chassis.stats(), ...this.sensorsOf(hostname).readings(), 'System Power': this.chassis.power };
  }

  /** `vfcs` as one machine's SMC answers it. */
  vfcsOf(hostname: string): VideoFormattingCard[] {
    return this.sensorsOf(hostname).cards(this.#vfcs);
  }

  /** The faults on now, by hostname as first asked for, for the control summary. */
  faultsOn(): Record<string, string[]> {
    const on: Record<string, string[]> = {};
    for (const [hostname, sensors] of this.#sensors) if (sensors.faults.size > 0) on[hostname] = [...sensors.faults];
    return on;
  }

  isSilent(hostname: string): boolean {
    return this.#silent.has(hostname.toLowerCase());
  }

  silentHostnames(): string[] {
    return [...this.#silent.keys()];
  }

  /** Silences a machine's SMC, or lets it answer again: the requests it held are answered then (their clients gone). */
  silence(hostname: string, on: boolean): void {
    const key = hostname.toLowerCase();
    if (on) {
      if (!this.#silent.has(key)) this.#silent.set(key, new Set());
      return;
    }
    const held = this.#silent.get(key);
    this.#silent.delete(key);
    for (const release of held ?? []) release();
  }

  /** Resolves when the machine's SMC answers again, or when `releaseHeld` lets every held request go. */
  heard(hostname: string): Promise<void> {
    const held = this.#silent.get(hostname.toLowerCase());
    if (!held) return Promise.resolve();
    return new Promise((resolve) => held.add(resolve));
  }

  /** Lets every held request go (the simulator closes, or is reset). */
  releaseHeld(): void {
    for (const held of this.#silent.values()) {
      for (const release of held) release();
      held.clear();
    }
  }

  /** Clearing the SMC database erases the user accounts, so the login is gone too. */
  clearSmc(): void {
    this.smc.clearAll();
    this.loggedIn = false;
    this.accountsErased = true;
  }

  vfcs(): VideoFormattingCard[] {
    return this.#vfcs.map((card) => ({ ...card }));
  }

  replaceVfcs(cards: readonly VideoFormattingCard[]): void {
    const slots = cards.map((card) => card.slot);
    const bad = slots.find((slot, index) => !Number.isInteger(slot) || slot < 0 || slots.indexOf(slot) !== index);
    if (bad !== undefined) throw invalidArgument(`Slot ${bad} is not a whole number of 0 or more, or is used twice.`);
    this.#vfcs = cards.map((card) => ({ slot: card.slot, type: card.type, status: card.status }));
  }

  localMachine(): LocalMachine {
    return { ...this.#localMachine };
  }

  setLocalMachine(machine: LocalMachine): void {
    if (machine.hostname.trim() === '') throw invalidArgument('hostname must not be empty.');
    this.#localMachine = { hostname: machine.hostname, serial: machine.serial, type: machine.type };
  }

  sessionRole(): SessionRole {
    return { ...this.#role };
  }

  /** Stored and reported; reshaping the session around a new role belongs to the `session` scenario. */
  setSessionRole(role: SessionRole): void {
    if (!(SESSION_ROLES as readonly string[]).includes(role.role)) {
      throw invalidArgument(`Role "${role.role}" is not one of ${SESSION_ROLES.join(', ')}.`);
    }
    this.#role = { role: role.role };
  }
}
