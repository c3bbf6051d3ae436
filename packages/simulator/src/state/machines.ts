import type { Ref, SessionInfo, SessionMachine } from '@stagelink/core';
import { failedPrecondition, invalidArgument, notFound } from './refusal.js';
import { requireByRef } from './refs.js';

/** One actor's part in the session and the machine playing it now: the actor, or an understudy standing in. */
export interface ActorPart {
  /** Changes only when the director role moves to this part's actor, which hands the part to the old director. */
  actor: SessionMachine;
  standIn?: SessionMachine;
}

/** GUI modes `setguimode` accepts (the spec does not list them); `hidden` also clears `guiVisible`. */
export const GUI_MODES = ['normal', 'locked', 'hidden'] as const;

export interface RosterSetup {
  /** The machine this process is: the director, or the solo machine. */
  local: SessionMachine;
  solo: boolean;
  isDirectorDedicated: boolean;
  actors: SessionMachine[];
  understudies: SessionMachine[];
}

/** Who is in the session and which machine plays which part. */
export class MachineRoster {
  readonly solo: boolean;
  readonly isDirectorDedicated: boolean;
  readonly parts: readonly ActorPart[];
  readonly #understudies: SessionMachine[];
  #local: SessionMachine;

  constructor(setup: RosterSetup) {
    this.#local = setup.local;
    this.solo = setup.solo;
    this.isDirectorDedicated = setup.isDirectorDedicated;
    this.parts = setup.actors.map((actor) => ({ actor }));
    this.#understudies = [...setup.understudies];
  }

  /** The director (or the solo machine). */
  get local(): SessionMachine {
    return this.#local;
  }

  get understudies(): readonly SessionMachine[] {
    return this.#understudies;
  }

  /**
   * Hands the director role to another machine, as a director failover does: that machine directs, and the old
   * director takes over the place it leaves (an actor's part or an understudy's).
   */
  moveDirector(hostname: string): void {
    if (this.solo) throw failedPrecondition('A solo machine has no session whose director could move.');
    const target = this.byHostname(hostname);
    if (!target) throw notFound(`No machine "${hostname}" in the session: machines are ${this.hostnames().join(', ')}.`);
    if (target === this.#local) return;
    const part = this.partOf(target.uid);
    if (part?.standIn || this.partPlayedBy(target.uid)) {
      throw failedPrecondition(`${target.hostname} is part of a failover: restore it before it takes the director role.`);
    }
    const old = this.#local;
    if (part) part.actor = old;
    else this.#understudies.splice(this.#understudies.indexOf(target), 1, old);
    [old.type, target.type] = [target.type, old.type];
    this.#local = target;
  }

  /**
   * Takes a free understudy out of the session, as an operator who reconfigures the session does: it is listed,
   * health-checked and watched no more. A machine standing in for an actor, an actor or the director cannot leave.
   */
  removeUnderstudy(hostname: string): void {
    const machine = this.byHostname(hostname);
    if (!machine || !this.isUnderstudy(machine.uid)) {
      throw notFound(`No understudy "${hostname}" in the session: understudies are ${this.#understudies.map((understudy) => understudy.hostname).join(', ') || 'none'}.`);
    }
    if (this.partPlayedBy(machine.uid)) throw failedPrecondition(`${machine.hostname} stands in for an actor: restore that actor before it leaves the session.`);
    this.#understudies.splice(this.#understudies.indexOf(machine), 1);
  }

  /** Every configured machine, this one first, whatever it plays now. */
  all(): SessionMachine[] {
    return [this.local, ...this.parts.map((part) => part.actor), ...this.understudies];
  }

  hostnames(): string[] {
    return this.all().map((machine) => machine.hostname);
  }

  /** Hostnames are compared in any case, as Windows and DNS do. */
  byHostname(hostname: string): SessionMachine | undefined {
    const wanted = hostname.toLowerCase();
    return this.all().find((machine) => machine.hostname.toLowerCase() === wanted);
  }

  /**
   * The session as `status/session` shows it: an understudy that took over an actor is listed among the actors,
   * in the failed actor's place and under its own uid, name and hostname; the failed actor is not listed; the
   * understudies list holds only the understudies that stand in for no one.
   */
  sessionInfo(): SessionInfo {
    const free = this.understudies.filter((understudy) => !this.partPlayedBy(understudy.uid));
    return {
      isRunningSolo: this.solo,
      isDirectorDedicated: this.isDirectorDedicated,
      ...(this.solo ? {} : { director: { ...this.local } }),
      actors: this.parts.map((part) => ({ ...(part.standIn ?? part.actor) })),
      understudies: free.map((understudy) => ({ ...understudy })),
    };
  }

  find(ref: Ref): SessionMachine {
    return requireByRef(this.all(), ref, 'machine');
  }

  /** The part whose actor is this machine. */
  partOf(uid: string): ActorPart | undefined {
    return this.parts.find((part) => part.actor.uid === uid);
  }

  /** The part this understudy stands in for. */
  partPlayedBy(uid: string): ActorPart | undefined {
    return this.parts.find((part) => part.standIn?.uid === uid);
  }

  isUnderstudy(uid: string): boolean {
    return this.understudies.some((understudy) => understudy.uid === uid);
  }

  setGuiMode(ref: Ref, mode: string): void {
    const machine = this.find(ref);
    if (!(GUI_MODES as readonly string[]).includes(mode)) {
      throw invalidArgument(`GUI mode "${mode}" is not one of ${GUI_MODES.join(', ')}.`);
    }
    machine.guiMode = mode;
    machine.guiVisible = mode !== 'hidden';
  }
}
