/**
 * A tile's hold on the client of its host: kept while the host stays the same, exchanged when it changes,
 * released on dispose. A malformed address becomes a sentence for the key face, not an exception.
 */
import { originOf, reasonOf } from '@stagelink/core';
import type { HostChoice } from '../settings.js';
import type { ServerLease, ServerPool } from '../state/connection/server-pool.js';

export type Binding =
  | { kind: 'bound'; lease: ServerLease; changed: boolean }
  | { kind: 'unset' }
  | { kind: 'unknown' }
  | { kind: 'invalid'; message: string };

export class HostBinding {
  #lease: ServerLease | undefined;

  constructor(private readonly pool: ServerPool) {}

  get lease(): ServerLease | undefined {
    return this.#lease;
  }

  bind(choice: HostChoice): Binding {
    if (choice.kind !== 'host') {
      this.release();
      return choice;
    }
    let origin: string;
    try {
      origin = originOf(choice.host);
    } catch (error) {
      this.release();
      return { kind: 'invalid', message: reasonOf(error) };
    }
    if (this.#lease?.origin === origin) return { kind: 'bound', lease: this.#lease, changed: false };
    this.release();
    try {
      this.#lease = this.pool.acquire(origin);
    } catch (error) {
      return { kind: 'invalid', message: reasonOf(error) };
    }
    return { kind: 'bound', lease: this.#lease, changed: true };
  }

  release(): void {
    this.#lease?.release();
    this.#lease = undefined;
  }
}

/** The sentence a key shows when it has no server to talk to. */
export function hostProblem(binding: Exclude<Binding, { kind: 'bound' }>): string | undefined {
  switch (binding.kind) {
    case 'unset':
      return 'Set the media server address in the inspector.';
    case 'invalid':
      return binding.message;
    case 'unknown':
      return undefined;
  }
}

/** A host as the key's small print shows it: `10.0.0.5`, `media-1:8080`. */
export function hostLabel(origin: string): string {
  return origin.replace(/^https?:\/\//, '');
}
