import type { ControlPanel } from '../control.js';
import { startHttpServer, type RunningHttpServer } from '../http-server.js';
import type { LiveUpdateServer } from '../live/live-server.js';
import { startManagementController } from '../management-controller.js';
import { createMediaServerApp, type MediaServerAppOptions } from '../media-server-app.js';
import type { CatalogueEndpoint } from '../router.js';
import { failureAnswer } from '../routes/answers.js';
import type { Answer } from '../routes/route.js';
import { notFound, StatusCode } from '../state/refusal.js';

export type MachineRole = 'director' | 'actor' | 'understudy';

/** How many system-picked ports to try for every machine of the session before giving up. */
const FREE_PORT_ATTEMPTS = 10;

const isAddressInUse = (error: unknown): boolean => (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';

export interface SessionMachineView {
  /** What `status/session` calls it: its loopback alias, or a machine name in a dialect that has them. */
  hostname: string;
  role: MachineRole;
  /** Its API server, on its loopback alias. */
  url: string;
  /** Its management controller, where the dialect serves the hardware family there. */
  smcUrl?: string;
  running: boolean;
}

export interface SessionMachinesOptions extends Omit<MediaServerAppOptions, 'serves' | 'account' | 'refuse'> {
  live: LiveUpdateServer;
  /** Told after the director role moved, e.g. to announce the new director over DNS-SD. */
  onDirectorMoved(): void;
}

/**
 * The `session` scenario: one HTTP server per machine of the session, each on its loopback alias and all on
 * one port. Every machine answers `status/session`, the service and the hardware families (in a dialect with
 * management controllers, each machine's controller does, on its own port); only the director serves the rest
 * of the session family and live update. Machines can be stopped and started, and the director role moved,
 * through the control endpoint of any machine, by hostname in any case. Servers listen on the machines'
 * addresses: a hostname is never resolved.
 */
export class SessionMachines {
  /** By hostname, as the session spells it. */
  readonly #servers = new Map<string, RunningHttpServer>();
  readonly #controllers = new Map<string, RunningHttpServer>();
  #port = 0;

  constructor(private readonly options: SessionMachinesOptions) {}

  async start(port: number): Promise<void> {
    const [director, ...others] = this.options.state().machines.hostnames();
    if (!director) throw new Error('The session has no machines.');
    for (let attempt = 1; ; attempt++) {
      try {
        this.#port = (await this.#listen(director, port)).port;
        for (const hostname of others) await this.#listen(hostname, this.#port);
        break;
      } catch (error) {
        await this.close();
        // Port 0: the system picked a port free on the director's address, which another process may hold on
        // another machine's. Pick again; a port that was asked for is the caller's to change.
        if (port !== 0 || !isAddressInUse(error) || attempt === FREE_PORT_ATTEMPTS) throw error;
      }
    }
    if (!this.options.state().words.ownManagementController) return;
    for (const hostname of [director, ...others]) {
      this.#controllers.set(hostname, await startManagementController(this.#addressOf(hostname), this.options, hostname));
    }
  }

  get port(): number {
    return this.#port;
  }

  get directorUrl(): string {
    return this.#urlOf(this.options.state().machines.local.hostname);
  }

  get directorSmcUrl(): string | undefined {
    return this.#controllers.get(this.options.state().machines.local.hostname)?.url;
  }

  machines(): SessionMachineView[] {
    return this.options.state().machines.hostnames().map((hostname) => {
      const smcUrl = this.#controllers.get(hostname)?.url;
      return {
        hostname,
        role: this.#roleOf(hostname),
        url: this.#urlOf(hostname),
        ...(smcUrl ? { smcUrl } : {}),
        running: this.#servers.has(hostname),
      };
    });
  }

  registerControlActions(panel: ControlPanel): void {
    panel.register('moveDirector', (params) => this.moveDirector(params.text('to')));
    panel.register('stopMachine', (params) => this.stopMachine(params.text('hostname')));
    panel.register('startMachine', (params) => this.startMachine(params.text('hostname')));
    panel.addSummaryPart('machines', () => this.machines());
  }

  /** The old director stops serving the session: its live-update clients are cut and must find the new one. */
  moveDirector(hostname: string): void {
    this.options.state().machines.moveDirector(this.#known(hostname));
    this.options.live.dropSockets();
    this.options.onDirectorMoved();
  }

  /** A stopped director hands its role to the first machine still running, as a director failover does. */
  async stopMachine(asked: string): Promise<void> {
    const hostname = this.#known(asked);
    const server = this.#servers.get(hostname);
    if (!server) return;
    this.#servers.delete(hostname);
    await server.close();
    if (this.#roleOf(hostname) !== 'director') return;
    const successor = this.machines().find((machine) => machine.running && this.#canDirect(machine.hostname));
    if (successor) this.moveDirector(successor.hostname);
  }

  async startMachine(asked: string): Promise<void> {
    const hostname = this.#known(asked);
    if (this.#servers.has(hostname)) return;
    await this.#listen(hostname, this.#port);
  }

  async close(): Promise<void> {
    const servers = [...this.#servers.values(), ...this.#controllers.values()];
    this.#servers.clear();
    this.#controllers.clear();
    await Promise.all(servers.map((server) => server.close()));
  }

  async #listen(hostname: string, port: number): Promise<RunningHttpServer> {
    const isDirector = (): boolean => this.options.state().machines.local.hostname === hostname;
    const serves = this.options.state().words.ownManagementController ? 'session' : 'all';
    const handle = createMediaServerApp({ ...this.options, serves, machine: hostname, refuse: (endpoint) => this.#refusal(hostname, isDirector(), endpoint) });
    const server = await startHttpServer({ host: this.#addressOf(hostname), port, handle, log: this.options.log });
    this.options.live.attach(server.server, isDirector);
    this.#servers.set(hostname, server);
    return server;
  }

  #refusal(hostname: string, isDirector: boolean, endpoint: CatalogueEndpoint): Answer | undefined {
    if (isDirector || endpoint.family !== 'session' || endpoint.id === 'session') return undefined;
    const director = this.options.state().machines.local.hostname;
    const message = `${hostname} is not the director of the session: send session requests to the director, ${director}.`;
    return failureAnswer('session', 200, StatusCode.failedPrecondition, message, this.options.state().words);
  }

  #roleOf(hostname: string): MachineRole {
    const roster = this.options.state().machines;
    if (roster.local.hostname === hostname) return 'director';
    return roster.parts.some((part) => part.actor.hostname === hostname) ? 'actor' : 'understudy';
  }

  #canDirect(hostname: string): boolean {
    const roster = this.options.state().machines;
    return !roster.parts.some((part) => part.standIn && (part.actor.hostname === hostname || part.standIn.hostname === hostname));
  }

  /** The hostname as the session spells it; a control action may write it in any case. */
  #known(hostname: string): string {
    const machines = this.options.state().machines;
    const found = machines.byHostname(hostname);
    if (!found) throw notFound(`No machine "${hostname}" in the session: machines are ${machines.hostnames().join(', ')}.`);
    return found.hostname;
  }

  /** The loopback alias the machine listens on. */
  #addressOf(hostname: string): string {
    const address = this.options.state().addressOf(hostname);
    if (!address) throw new Error(`The session scenario has no address for machine ${hostname}.`);
    return address;
  }

  #urlOf(hostname: string): string {
    return `http://${this.#addressOf(hostname)}:${this.#port}`;
  }
}
