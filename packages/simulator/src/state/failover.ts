import type { FailoverSettings, Ref, SessionMachine, UnderstudyTargets } from '@stagelink/core';
import type { ActorPart, MachineRoster } from './machines.js';
import { failedPrecondition, Refusal, StatusCode } from './refusal.js';

export interface FailoverSetup {
  timeoutSeconds: number;
  /** The routing preset of a healthy session. */
  normalPreset: string;
  /** The routing preset a failover switches to; it stays until default routing is applied again. */
  failoverPreset: string;
  /** Which understudy covers which actor, by uid: tried first when that actor fails over. */
  targets: ReadonlyMap<string, string>;
}

/**
 * Failover of actor machines: an understudy takes over a failed actor; restoring the actor
 * gives the understudy back, but the routing stays on the failover preset until applydefaultrouting.
 */
export class Failover {
  #currentPreset: string;

  constructor(
    private readonly roster: MachineRoster,
    private readonly setup: FailoverSetup,
  ) {
    this.#currentPreset = setup.normalPreset;
  }

  failoverMachine(ref: Ref): ActorPart {
    this.#refuseWhenSolo('fail over');
    const machine = this.roster.find(ref);
    const part = this.roster.partOf(machine.uid);
    if (!part) throw failedPrecondition(`${describe(machine)} is ${this.#roleOf(machine)}: only actor machines fail over.`);
    if (part.standIn) {
      throw failedPrecondition(`Actor ${describe(machine)} has already failed over to ${describe(part.standIn)}: restore it first.`);
    }
    part.standIn = this.#understudyFor(part.actor);
    this.#currentPreset = this.setup.failoverPreset;
    return part;
  }

  /** Takes the failed actor, or the understudy standing in for it. */
  restoreMachine(ref: Ref): ActorPart {
    this.#refuseWhenSolo('restore');
    const machine = this.roster.find(ref);
    const part = this.roster.partOf(machine.uid) ?? this.roster.partPlayedBy(machine.uid);
    if (!part) throw failedPrecondition(`${describe(machine)} is ${this.#roleOf(machine)}, not a failed-over actor.`);
    if (!part.standIn) throw failedPrecondition(`Actor ${describe(part.actor)} has not failed over: there is nothing to restore.`);
    part.standIn = undefined;
    return part;
  }

  applyDefaultRouting(): void {
    this.#currentPreset = this.setup.normalPreset;
  }

  settings(): FailoverSettings {
    return { timeout: this.setup.timeoutSeconds, normalPreset: this.setup.normalPreset, currentPreset: this.#currentPreset };
  }

  /** The spec does not show this object: the simulator maps actor hostnames to the hostname of their understudy. */
  understudyTargets(): UnderstudyTargets {
    const targets: UnderstudyTargets = {};
    for (const { actor } of this.roster.parts) {
      const understudy = this.roster.understudies.find((machine) => machine.uid === this.setup.targets.get(actor.uid));
      if (understudy) targets[actor.hostname] = understudy.hostname;
    }
    return targets;
  }

  /** What live update's `getByUID(uid).hasTakenOverFailedMachine()` reads; undefined for an unknown uid. */
  hasTakenOverFailedMachine(uid: string): boolean | undefined {
    if (!this.roster.all().some((machine) => machine.uid === uid)) return undefined;
    return this.roster.partPlayedBy(uid) !== undefined;
  }

  #understudyFor(actor: SessionMachine): SessionMachine {
    const free = this.roster.understudies.filter((understudy) => !this.roster.partPlayedBy(understudy.uid));
    const preferred = free.find((understudy) => understudy.uid === this.setup.targets.get(actor.uid));
    const chosen = preferred ?? free[0];
    if (chosen) return chosen;
    const busy = this.roster.parts.filter((part) => part.standIn).map((part) => `${describe(part.standIn)} stands in for ${describe(part.actor)}`);
    throw new Refusal(StatusCode.resourceExhausted, `No free understudy to take over ${describe(actor)}: ${busy.join('; ')}.`);
  }

  #roleOf(machine: SessionMachine): string {
    if (machine.uid === this.roster.local.uid) return 'the director';
    const part = this.roster.partPlayedBy(machine.uid);
    if (part) return `an understudy standing in for ${describe(part.actor)}`;
    return this.roster.isUnderstudy(machine.uid) ? 'an understudy' : 'not an actor';
  }

  #refuseWhenSolo(verb: string): void {
    if (this.roster.solo) throw failedPrecondition(`This machine runs solo: there is no session and no actor to ${verb}.`);
  }
}

function describe(machine: SessionMachine | undefined): string {
  return machine ? `"${machine.name}" (${machine.hostname})` : 'nobody';
}
