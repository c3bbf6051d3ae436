/** One `stallBody` path as the control summary shows it; `afterBytes` null sends half of each body. */
export interface StalledPath {
  path: string;
  afterBytes: number | null;
}

/** How an answer stalls: its headers, then `afterBytes` bytes of its body (null: half of it), then nothing. */
export interface AnswerStall {
  afterBytes: number | null;
}

/** The bytes of a body sent before it stalls: at least one is held back, so the body never completes. */
export function bytesBeforeStall(stall: AnswerStall, bodyBytes: number): number {
  const afterBytes = stall.afterBytes ?? Math.floor(bodyBytes / 2);
  return Math.max(0, Math.min(afterBytes, bodyBytes - 1));
}

/**
 * Answers whose body stops after their headers, as on a show network with mismatched MTU: small answers arrive,
 * larger ones send their headers and part of the body, then nothing more until the client gives up.
 */
export class StalledAnswers {
  readonly #paths = new Map<string, number | null>();

  /** Stalls every answer to exactly `path` (any method), or stops stalling it. */
  set(path: string, on: boolean, afterBytes?: number): void {
    if (on) this.#paths.set(path, afterBytes ?? null);
    else this.#paths.delete(path);
  }

  /** How an answer to `path` stalls; undefined when it is sent whole. */
  stallFor(path: string): AnswerStall | undefined {
    return this.#paths.has(path) ? { afterBytes: this.#paths.get(path) ?? null } : undefined;
  }

  list(): StalledPath[] {
    return [...this.#paths].map(([path, afterBytes]) => ({ path, afterBytes }));
  }

  clear(): void {
    this.#paths.clear();
  }
}
