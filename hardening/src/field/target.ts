import { simControl, startSimulator, type ControlRequest, type Dialect, type LiveStats, type Simulator } from '@stagelink/simulator';

/** One simulated director for the field faults, reset between generators. */
export class FieldTarget {
  private constructor(readonly sim: Simulator) {}

  static async start(seed: number, dialect: Dialect): Promise<FieldTarget> {
    return new FieldTarget(await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed, dialect }));
  }

  get url(): string {
    return this.sim.mediaServer.url;
  }

  async control(request: ControlRequest): Promise<void> {
    await simControl(this.url, request);
  }

  live(): LiveStats {
    return this.sim.live.stats();
  }

  /** Clears every fault and rebuilds the show, so each generator starts from the same director. */
  reset(): void {
    this.sim.reset();
  }

  async close(): Promise<void> {
    await this.sim.close();
  }
}
