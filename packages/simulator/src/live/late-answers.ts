interface Waiting {
  /** When it may go out (epoch ms); it also waits for everything queued before it. */
  due: number;
  emit(): void;
}

/**
 * A socket's answers (`subscriptions` lists, `error` frames) sent late, as a director busy loading a project
 * sends them, in the order they were made. Values are not answers: they go out on time, except a subscribe's
 * current value, which a real director sends after its list (`follow`).
 */
export class LateAnswers {
  readonly #queue: Waiting[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly delayMs: () => number,
    private readonly now: () => number,
  ) {}

  /** Emits at once when no delay is set and nothing waits; otherwise `delayMs` from now, behind what waits. */
  answer(emit: () => void): void {
    const ms = this.delayMs();
    if (ms === 0 && this.#queue.length === 0) emit();
    else this.#enqueue({ due: this.now() + ms, emit });
  }

  /** Emits right after the answers that wait, or at once when none wait. */
  follow(emit: () => void): void {
    if (this.#queue.length === 0) emit();
    else this.#enqueue({ due: 0, emit });
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue.length = 0;
  }

  #enqueue(waiting: Waiting): void {
    this.#queue.push(waiting);
    if (this.#queue.length === 1) this.#schedule();
  }

  #schedule(): void {
    const head = this.#queue[0];
    if (!head) return;
    this.#timer = setTimeout(() => this.#release(), Math.max(0, head.due - this.now()));
  }

  #release(): void {
    this.#timer = undefined;
    while (this.#queue.length > 0 && (this.#queue[0]?.due ?? 0) <= this.now()) this.#queue.shift()?.emit();
    this.#schedule();
  }
}
