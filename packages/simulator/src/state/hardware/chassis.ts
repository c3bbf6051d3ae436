export type PowerState = 'on' | 'off';

/**
 * The chassis as IPMI sees it. Power changes are recorded and reported; the simulator itself keeps answering
 * (a real machine powered off through IPMI would not).
 */
export class Chassis {
  #power: PowerState = 'on';
  #identifications = 0;

  constructor(private readonly readings: Readonly<Record<string, string>>) {}

  get power(): PowerState {
    return this.#power;
  }

  /** How many times whoami blinked the OLED and the rear LED strip. */
  get identifications(): number {
    return this.#identifications;
  }

  powerOn(): void {
    this.#power = 'on';
  }

  powerOff(): void {
    this.#power = 'off';
  }

  /** Off and on again, ending on whatever the state was. */
  powerCycle(): void {
    this.#power = 'on';
  }

  /** Worded as ipmitool words it. */
  powerStatus(): string {
    return `Chassis Power is ${this.#power}`;
  }

  stats(): Record<string, string> {
    return { ...this.readings, 'System Power': this.#power };
  }

  identify(): void {
    this.#identifications += 1;
  }
}
