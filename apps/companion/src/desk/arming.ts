/**
 * Two presses for what core says needs a confirmation (failover, restore, power off, power cycle): the first
 * arms the operation on that target for a few seconds and the `armed` feedback shows it; the second, while armed,
 * fires it once. Nothing else fires it, and a press after the time ran out arms again.
 */
export const ARM_MS = 5000;

export class Arming {
  readonly #armed = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly onChange: () => void,
    private readonly armMs = ARM_MS,
  ) {}

  /** True when this press fires (it was armed, and is disarmed now); false when it only armed. */
  press(key: string): boolean {
    const timer = this.#armed.get(key);
    if (timer) {
      clearTimeout(timer);
      this.#armed.delete(key);
      this.onChange();
      return true;
    }
    this.#armed.set(
      key,
      setTimeout(() => {
        this.#armed.delete(key);
        this.onChange();
      }, this.armMs),
    );
    this.onChange();
    return false;
  }

  isArmed(key: string): boolean {
    return this.#armed.has(key);
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
