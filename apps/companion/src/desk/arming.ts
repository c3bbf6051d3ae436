/**
 * Two presses for what core says needs a confirmation (failover, restore, power off, power cycle): the first
 * arms the operation on that target for a few seconds and the `armed` feedback shows it; the second, while armed,
 * fires it once. The arm belongs to the button that was pressed (Companion's `controlId`): the same operation on
 * another button arms that button and fires nothing. Nothing else fires it, a press after the time ran out arms
 * again, and a change of the connection's settings clears every arm, so a second press never fires at a new host.
 */
export const ARM_MS = 5000;

/** Between what is armed and the button that armed it, in the keys of the armed map. */
const ON_BUTTON = '\u0001';

export class Arming {
  readonly #armed = new Map<string, NodeJS.Timeout>();
  #version = 0;

  constructor(
    private readonly changed: () => void,
    private readonly armMs = ARM_MS,
  ) {}

  /** Counts every change of what is armed: the `armed` feedback needs a check only when it moved. */
  get version(): number {
    return this.#version;
  }

  /** True when this press of the button fires (it was armed there, and is disarmed now); false when it only armed. */
  press(key: string, controlId: string): boolean {
    const armed = `${key}${ON_BUTTON}${controlId}`;
    const timer = this.#armed.get(armed);
    if (timer) {
      clearTimeout(timer);
      this.#armed.delete(armed);
      this.onChange();
      return true;
    }
    this.#armed.set(
      armed,
      setTimeout(() => {
        this.#armed.delete(armed);
        this.onChange();
      }, this.armMs),
    );
    this.onChange();
    return false;
  }

  /** True when the operation on that target is armed on any button. */
  isArmed(key: string): boolean {
    return this.isArmedWithPrefix(`${key}${ON_BUTTON}`);
  }

  /** True when any key that starts with `prefix` is armed. */
  isArmedWithPrefix(prefix: string): boolean {
    for (const key of this.#armed.keys()) if (key.startsWith(prefix)) return true;
    return false;
  }

  private onChange(): void {
    this.#version += 1;
    this.changed();
  }

  /** Disarms everything (the settings changed); tells the feedbacks when something was armed. */
  clear(): void {
    const had = this.#armed.size > 0;
    this.close();
    if (had) this.onChange();
  }

  close(): void {
    for (const timer of this.#armed.values()) clearTimeout(timer);
    this.#armed.clear();
  }
}

/** What is armed: an operation on one target. */
export function armKey(operation: string, target: string): string {
  return `${operation}\u0000${target}`;
}

/**
 * What a power press arms: the operation on that machine (any case), so a press for another machine never fires
 * it. The `armed` feedback's target `off` shows it for any machine, `off ACTOR01` for that one.
 */
export function powerArmKey(operation: string, machine: string): string {
  return armKey('smc_power', `${operation} ${machine.toLowerCase()}`);
}

/** The `armed` feedback of one action and target, with power's targets read as `powerArmKey` says. */
export function isArmedFor(arming: Arming, action: string, target: string): boolean {
  if (action !== 'smc_power') return arming.isArmed(armKey(action, target));
  const [operation = '', ...machine] = target.trim().split(/\s+/);
  return machine.length > 0 ? arming.isArmed(powerArmKey(operation, machine.join(' '))) : arming.isArmedWithPrefix(armKey('smc_power', `${operation} `));
}
