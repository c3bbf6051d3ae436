/**
 * Two presses for what must not fire on a stray touch: the first arms the key for a few seconds (its face says
 * so), the second, while armed, fires it once. The arm belongs to the key that was pressed, nothing else fires it,
 * a press after the time ran out arms again, and a change of the key's settings disarms it, so a second press never
 * fires at another layer or host. The same rule and window as Companion's two-press actions.
 */

/** How long a first press keeps the key armed. */
export const ARM_MS = 5000;

export class KeyArm {
  #timer: NodeJS.Timeout | undefined;

  constructor(
    /** Told when the key arms, and when it disarms by itself or is disarmed: its face changes. */
    private readonly changed: () => void,
    private readonly armMs = ARM_MS,
  ) {}

  get armed(): boolean {
    return this.#timer !== undefined;
  }

  /** True when this press fires (the key was armed, and is disarmed now); false when it only armed the key. */
  press(): boolean {
    if (this.#timer) {
      this.#disarm();
      this.changed();
      return true;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.changed();
    }, this.armMs);
    this.changed();
    return false;
  }

  /** Disarms the key (its settings changed); tells only when it was armed. */
  clear(): void {
    if (!this.#timer) return;
    this.#disarm();
    this.changed();
  }

  /** Disarms without telling: the key is going away. */
  close(): void {
    this.#disarm();
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
