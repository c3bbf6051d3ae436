import { simControl, startSimulator, type ControlRequest, type Dialect, type Simulator } from '@stagelink/simulator';

/** A one-machine simulator that can be stopped and started again on the same port: a server restart. */
export class RestartableSim {
  #sim: Simulator;
  #up = true;

  private constructor(
    sim: Simulator,
    readonly port: number,
    private readonly seed: number,
    private readonly dialect: Dialect,
  ) {
    this.#sim = sim;
  }

  static async start(seed: number, dialect: Dialect): Promise<RestartableSim> {
    const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed, dialect });
    return new RestartableSim(sim, sim.mediaServer.port, seed, dialect);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get sim(): Simulator {
    return this.#sim;
  }

  get up(): boolean {
    return this.#up;
  }

  async stop(): Promise<void> {
    if (!this.#up) return;
    this.#up = false;
    await this.#sim.close();
  }

  async start(): Promise<void> {
    if (this.#up) return;
    this.#sim = await startSimulator({ host: '127.0.0.1', port: this.port, drivePort: 0, seed: this.seed, dialect: this.dialect });
    this.#up = true;
  }

  async close(): Promise<void> {
    await this.stop();
  }
}

/** The two servers faults are played on: one machine (restartable) and a session of four (director moves). */
export class FaultTargets {
  private constructor(
    readonly machine: RestartableSim,
    readonly session: Simulator,
  ) {}

  static async start(seed: number, dialect: Dialect): Promise<FaultTargets> {
    const machine = await RestartableSim.start(seed, dialect);
    const session = await startSimulator({ scenario: 'session', port: 0, drivePort: 0, seed, dialect });
    return new FaultTargets(machine, session);
  }

  /** True when the session's hostnames are addresses (the spec dialect); r34's `DIRECTOR01` resolves nowhere. */
  get namesResolve(): boolean {
    return this.session.options.dialect === 'spec';
  }

  /** Where each machine of the session is, as `HOSTNAME=address` lines: what a front end is told for r34 names. */
  hostMap(): string {
    return this.session.machines().map((machine) => `${machine.hostname}=${machine.url}`).join('\n');
  }

  /** The address front ends are given for the session: its first director; they follow the role from there. */
  get sessionSeedUrl(): string {
    return this.session.machines()[0]?.url ?? this.session.mediaServer.url;
  }

  /** The session's other machines, for front ends told them as backup addresses to find the director by. */
  sessionBackupUrls(): string[] {
    return this.session.machines().map((machine) => machine.url).filter((url) => url !== this.sessionSeedUrl);
  }

  async machineControl(body: ControlRequest): Promise<void> {
    await simControl(this.machine.url, body);
  }

  /** Control goes through a running machine other than the one the action stops or starts. */
  async sessionControl(body: ControlRequest): Promise<void> {
    const via = this.session.machines().find((machine) => machine.running && machine.hostname !== body.hostname);
    await simControl(via?.url ?? this.session.mediaServer.url, body);
  }

  /** Live-update sockets open on both servers: the front ends' own, or leaks. */
  liveSockets(): number {
    return (this.machine.up ? this.machine.sim.live.stats().sockets : 0) + this.session.live.stats().sockets;
  }

  async close(): Promise<void> {
    await this.machine.close();
    await this.session.close();
  }
}
