import type { FakeStreamDeck } from './deck.js';

/**
 * Presses of transport keys and what the plugin answered: each press must end in exactly one showOk or
 * showAlert on its key (every outcome ends in OK or an alert; nothing is silent).
 */
export class KeyPresses {
  readonly #pressed = new Map<string, number>();

  constructor(private readonly deck: FakeStreamDeck) {}

  press(context: string): void {
    this.#pressed.set(context, (this.#pressed.get(context) ?? 0) + 1);
    this.deck.press(context);
  }

  /** Counts a keyDown sent some other way (it is what fires a cue). */
  keyDown(context: string): void {
    this.#pressed.set(context, (this.#pressed.get(context) ?? 0) + 1);
    this.deck.keyDown(context);
  }

  get total(): number {
    return [...this.#pressed.values()].reduce((sum, count) => sum + count, 0);
  }

  answered(context: string): { ok: number; alert: number } {
    return { ok: this.deck.sent('showOk', context).length, alert: this.deck.sent('showAlert', context).length };
  }

  /** Presses still without an answer (never negative) and answers beyond the presses, over all keys. */
  balance(): { unanswered: number; extra: number; ok: number; alert: number } {
    let unanswered = 0;
    let extra = 0;
    let ok = 0;
    let alert = 0;
    for (const [context, pressed] of this.#pressed) {
      const answers = this.answered(context);
      ok += answers.ok;
      alert += answers.alert;
      const difference = pressed - answers.ok - answers.alert;
      if (difference > 0) unanswered += difference;
      else extra -= difference;
    }
    return { unanswered, extra, ok, alert };
  }

  /** Waits (up to `timeoutMs`) until every press has its answer. */
  async settle(timeoutMs: number): Promise<ReturnType<KeyPresses['balance']>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const balance = this.balance();
      if (balance.unanswered === 0 || Date.now() >= deadline) return balance;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
