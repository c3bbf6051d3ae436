/**
 * One machine of the session as the module shows it: its role, its live FPS and their rolling average (what
 * alerts go by, so one dip raises none), and for an understudy whether it has taken over a failed actor.
 */
import { classifyFps, livePresets, machineFps, type FpsAlert, type MachineRole, type MediaServer, RollingAverage, type SessionMember } from '@stagelink/core';
import { asBoolean, asNumber, LiveValue } from './live-value.js';

export class MachineWatch {
  readonly fps: LiveValue<number>;
  readonly takeover: LiveValue<boolean> | undefined;
  readonly #average = new RollingAverage();
  role: MachineRole;

  constructor(
    readonly id: string,
    readonly member: SessionMember,
    server: MediaServer,
    onChange: () => void,
    linkWasUp: () => boolean,
  ) {
    this.role = member.role;
    const { hostname, uid } = member.machine;
    // A role that moves makes a new watch (see Show), so the member's role says who directs for this one.
    const director = member.role === 'director' ? hostname : undefined;
    const request = () => machineFps(hostname, director);
    this.fps = new LiveValue(server, request, asNumber, (value) => {
      if (value === undefined) this.#average.reset();
      else this.#average.push(value);
      onChange();
    }, linkWasUp);
    this.takeover = member.role === 'understudy' ? new LiveValue(server, () => livePresets.failoverTakeover(uid), asBoolean, onChange, linkWasUp) : undefined;
  }

  get name(): string {
    return this.member.machine.name || this.member.machine.hostname;
  }

  get hostname(): string {
    return this.member.machine.hostname;
  }

  /** The rolling average of the live FPS; undefined while the FPS is not live. */
  get averageFps(): number | undefined {
    return this.fps.value === undefined ? undefined : this.#average.value;
  }

  /** The alert of the average against the show's frame rate; undefined while the FPS is not live. */
  alert(frameRate: number): FpsAlert | undefined {
    const average = this.averageFps;
    return average === undefined ? undefined : classifyFps(average, frameRate);
  }

  close(): void {
    this.fps.close();
    this.takeover?.close();
  }
}
