import { reasonOf } from '@stagelink/core';
import { API_SERVICE_TYPE, DIRECTOR_SERVICE_TYPE, onMdnsSocketError } from '@stagelink/core/protocol';
import { Bonjour, type ServiceConfig } from 'bonjour-service';

export interface AnnouncedDirector {
  hostname: string;
  port: number;
  session: string;
}

/**
 * Announces the director of the simulated session over DNS-SD on loopback only, with the spec's names
 * (`_svcdirector._tcp` carrying the session in TXT, `_svcapi._http._tcp` for its API server). Nothing leaves
 * the machine: multicast goes out on 127.0.0.1.
 */
export class DirectorAnnouncer {
  readonly #bonjour: Bonjour;

  constructor(onProblem: (message: string) => void) {
    const options = { interface: '127.0.0.1', bind: '0.0.0.0' } as Partial<ServiceConfig>;
    const report = (error: unknown): void => onProblem(`DNS-SD: ${reasonOf(error)}`);
    this.#bonjour = new Bonjour(options, report);
    onMdnsSocketError(this.#bonjour, report);
  }

  /** Replaces what is announced, e.g. after the director role moved. */
  announce(director: AnnouncedDirector): void {
    this.#bonjour.unpublishAll();
    const common = { host: director.hostname, port: director.port, disableIPv6: true, probe: false };
    this.#bonjour.publish({ ...common, name: `${director.session} director`, type: DIRECTOR_SERVICE_TYPE, txt: { session: director.session } });
    this.#bonjour.publish({ ...common, name: `${director.session} API`, type: API_SERVICE_TYPE });
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
