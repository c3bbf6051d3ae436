import { vi } from 'vitest';
import { simControl, startSimulator, type ControlRequest, type Simulator, type SimulatorSummary } from '@stagelink/simulator';

/** A simulator on free loopback ports, with its control endpoint at hand. */
export async function startTestSimulator(): Promise<Simulator & { control(action: ControlRequest): Promise<SimulatorSummary> }> {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 7 });
  return Object.assign(sim, { control: (action: ControlRequest) => control(sim.mediaServer.url, action) });
}

export const control = (url: string, action: ControlRequest): Promise<SimulatorSummary> => simControl(url, action);

/** Polls until the check passes; the failure message says what never happened. */
export function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 8000): Promise<void> {
  return vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`Still waiting until ${what}`);
    },
    { timeout: timeoutMs, interval: 20 },
  );
}
