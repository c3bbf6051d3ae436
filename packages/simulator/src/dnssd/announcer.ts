import { reasonOf } from '@stagelink/core';
import { onMdnsSocketError } from '@stagelink/core/protocol';
import { Bonjour, type ServiceConfig } from 'bonjour-service';
import type { Dialect } from '../options.js';
import { servicesOf, type AnnouncedSession } from './announcements.js';

/**
 * Announces the simulated session over DNS-SD on loopback only, with the dialect's names (see announcements.ts).
 * Nothing leaves the machine: multicast goes out on 127.0.0.1.
 */
export class SessionAnnouncer {
  readonly #bonjour: Bonjour;

  constructor(
    private readonly dialect: Dialect,
    onProblem: (message: string) => void,
  ) {
    const options = { interface: '127.0.0.1', bind: '0.0.0.0' } as Partial<ServiceConfig>;
    const report = (error: unknown): void => onProblem(`DNS-SD: ${reasonOf(error)}`);
    this.#bonjour = new Bonjour(options, report);
    onMdnsSocketError(this.#bonjour, report);
  }

  /** Replaces what is announced, e.g. after the director role moved. */
  announce(session: AnnouncedSession): void {
    this.#bonjour.unpublishAll();
    for (const service of servicesOf(this.dialect, session)) this.#bonjour.publish(service);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#bonjour.unpublishAll(() => {
        this.#bonjour.destroy();
        resolve();
      });
    });
  }
}
