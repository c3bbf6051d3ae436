/**
 * A tile's hold on the client of its host: kept while the host and the director search (hosts map, backup addresses,
 * DNS-SD) stay the same, exchanged when any changes, released on dispose. A malformed address, hosts map or backup
 * address becomes a sentence for the key face, not an exception.
 */
import { originOf, reasonOf } from '@stagelink/core';
import { directorSearchSetting, DirectorSearchError, type DirectorSearch, type HostChoice } from '../settings.js';
import { leaseKey, type ServerLease, type ServerPool } from '../state/connection/server-pool.js';

/** The settings page's label of each director-search field, as a key's SET UP message names the one to fix. */
const SETTING_LABELS: Record<DirectorSearchError['setting'], string> = {
  hosts: 'Machine addresses',
  backupHosts: 'Backup addresses',
  dnssdInterface: 'DNS-SD interface',
};

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
    let search: DirectorSearch;
    try {
      origin = originOf(choice.host);
    } catch (error) {
      this.release();
      return { kind: 'invalid', message: reasonOf(error) };
    }
    try {
      search = directorSearchSetting(choice);
    } catch (error) {
      this.release();
      const setting = error instanceof DirectorSearchError ? SETTING_LABELS[error.setting] : SETTING_LABELS.hosts;
      return { kind: 'invalid', message: `${setting}: ${reasonOf(error)}` };
    }
    if (this.#lease?.key === leaseKey(origin, search)) return { kind: 'bound', lease: this.#lease, changed: false };
    this.release();
    try {
      this.#lease = this.pool.acquire(origin, search);
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
