import type { ApiFamily } from '@stagelink/core';

/** The `slowAnswer` fault as the control summary shows it. */
export interface SlowAnswer {
  ms: number;
  /** The one path answered late; null: every session-family command (POST). */
  path: string | null;
}

/**
 * Commands that take effect at once and answer late, as a director doing API work on its main thread does. By
 * default only session-family commands (POSTs) are late: a client that gave up on one and reads the state
 * again (a GET) sees at once whether it landed. Naming a path makes every request to it late, GETs included.
 */
export class SlowAnswers {
  #ms = 0;
  #path: string | null = null;

  /** `ms` 0 clears. */
  set(ms: number, path?: string): void {
    this.#ms = ms;
    this.#path = ms > 0 ? (path ?? null) : null;
  }

  /** How long the answer to this request waits after the request took effect. */
  delayMs(method: string, path: string, family: ApiFamily | undefined): number {
    if (this.#ms === 0) return 0;
    const slow = this.#path === null ? family === 'session' && method === 'POST' : path === this.#path;
    return slow ? this.#ms : 0;
  }

  get summary(): SlowAnswer | null {
    return this.#ms > 0 ? { ms: this.#ms, path: this.#path } : null;
  }

  clear(): void {
    this.set(0);
  }
}
