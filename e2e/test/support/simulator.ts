import { startSimulator, type Simulator } from '@stagelink/simulator';
import { request } from 'undici';

/** A simulator on free loopback ports, with its control endpoint at hand. */
export async function startTestSimulator(): Promise<Simulator & { control(action: Record<string, unknown>): Promise<ControlSummary> }> {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 7 });
  return Object.assign(sim, { control: (action: Record<string, unknown>) => control(sim.mediaServer.url, action) });
}

export interface ControlSummary {
  live: { sockets: number; subscriptions: number; references: number; upgradeAttempts: number };
  [key: string]: unknown;
}

export async function control(url: string, action: Record<string, unknown>): Promise<ControlSummary> {
  const response = await request(`${url}/__sim/control`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(action),
  });
  const body = (await response.body.json()) as ControlSummary;
  if (response.statusCode !== 200) throw new Error(`control ${JSON.stringify(action)} answered ${response.statusCode}: ${JSON.stringify(body)}`);
  return body;
}

/** Polls until the check passes; the failure message says what never happened. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
