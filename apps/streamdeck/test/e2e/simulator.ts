/** The simulator as the end-to-end tests use it: started, stopped and started again on the same port. */
import { simControl, startSimulator, type ControlRequest, type Dialect, type LogSink, type Simulator } from '@stagelink/simulator';

export const SEED = 7;

/**
 * `log` hears every request the simulator answers (`{event: 'request', method, path, status}`); `dialect` fixes the
 * simulator's dialect for a test that needs one (default: STAGELINK_SIM_DIALECT, else the documents').
 */
export async function startSim(port = 0, log?: LogSink, dialect?: Dialect): Promise<Simulator> {
  return startSimulator({ host: '127.0.0.1', port, drivePort: 0, seed: SEED, ...(log ? { log } : {}), ...(dialect ? { dialect } : {}) });
}

export function portOf(sim: Simulator): number {
  return Number(new URL(sim.mediaServer.url).port);
}

/** Sends a fault or switch to the simulator's control endpoint. */
export async function control(sim: Simulator, request: ControlRequest): Promise<void> {
  await simControl(sim.mediaServer.url, request);
}
