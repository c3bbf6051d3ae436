/** Why a step of a call stopped being waited for. */
export type Interruption = 'deadline' | 'aborted';

/**
 * One call's deadline across the steps it takes beyond a single request (finding the director, asking where it
 * went, sending once more): each step gets what is left of it, and the caller's signal ends the wait at once.
 * A deadline restarted per step lets a cue land seconds after its caller gave up on it.
 */
export class CallBudget {
  readonly #endsAt: number;

  constructor(
    timeoutMs: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.#endsAt = performance.now() + timeoutMs;
  }

  /** Milliseconds left of the call's deadline; 0 once it has passed. */
  get remainingMs(): number {
    return Math.max(0, Math.floor(this.#endsAt - performance.now()));
  }

  get aborted(): boolean {
    return this.signal?.aborted === true;
  }

  /**
   * The step's value, or why the call stopped waiting for it. The step itself goes on (a director check is shared
   * with other callers and the follower's own timer); only this call stops waiting. Leaves no timer or listener.
   */
  async within<T>(step: Promise<T>): Promise<{ value: T } | { interrupted: Interruption }> {
    if (this.aborted) return { interrupted: 'aborted' };
    const remaining = this.remainingMs;
    if (remaining === 0) return { interrupted: 'deadline' };
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const interruption = new Promise<{ interrupted: Interruption }>((resolve) => {
      timer = setTimeout(() => resolve({ interrupted: 'deadline' }), remaining);
      onAbort = () => resolve({ interrupted: 'aborted' });
      this.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([step.then((value) => ({ value })), interruption]);
    } finally {
      clearTimeout(timer);
      if (onAbort) this.signal?.removeEventListener('abort', onAbort);
    }
  }
}
