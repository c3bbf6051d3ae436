import type { LedStrip, LocalMachine, NetworkAdapter, SessionRole, VideoFormattingCard } from '@stagelink/core';
import type { Clock } from '../clock.js';
import { invalidArgument } from '../refusal.js';
import { Chassis } from './chassis.js';
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

  constructor(clock: Clock, setup: HardwareSetup) {
    this.smc = new Smc(setup.smc);
    this.adapters = new NetworkAdapters(setup.adapters);
    this.chassis = new Chassis(setup.chassisReadings);
    this.oled = new Oled(clock);
    this.#vfcs = setup.vfcs.map((card) => ({ ...card }));
    this.#localMachine = { ...setup.localMachine };
    this.#role = { ...setup.role };
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
