import type { Ref, SessionInfo, SessionMachine } from '@stagelink/core';
import { invalidArgument } from './refusal.js';
import { requireByRef } from './refs.js';

/** One actor's part in the session and the machine playing it now: the actor, or an understudy standing in. */
export interface ActorPart {
  readonly actor: SessionMachine;
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
  readonly local: SessionMachine;
  readonly solo: boolean;
  readonly isDirectorDedicated: boolean;
  readonly parts: readonly ActorPart[];
  readonly understudies: readonly SessionMachine[];

  constructor(setup: RosterSetup) {
    this.local = setup.local;
    this.solo = setup.solo;
    this.isDirectorDedicated = setup.isDirectorDedicated;
    this.parts = setup.actors.map((actor) => ({ actor }));
    this.understudies = setup.understudies;
  }

  /** Every configured machine, this one first, whatever it plays now. */
  all(): SessionMachine[] {
    return [this.local, ...this.parts.map((part) => part.actor), ...this.understudies];
  }

  hostnames(): string[] {
    return this.all().map((machine) => machine.hostname);
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
