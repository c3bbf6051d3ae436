import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simControl, startSimulator, type Simulator } from '../src/index.js';

describe('simControl', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0 });
  });
  afterAll(() => sim.close());

  it('sends an action and resolves to the summary after it', async () => {
    const summary = await simControl(`${sim.mediaServer.url}/`, { action: 'latency', ms: 25 });
    expect(summary.latencyMs).toBe(25);
    expect(summary.live.sockets).toBe(0);
    expect((await simControl(sim.mediaServer.url, { action: 'reset' })).latencyMs).toBe(0);
  });

  it('rejects an action the simulator refuses with its words', async () => {
    await expect(simControl(sim.mediaServer.url, { action: 'latency', ms: -1 })).rejects.toThrow(/answered 400: .*ms/);
    await expect(simControl(sim.mediaServer.url, { action: 'nope' })).rejects.toThrow(/answered 400: Unknown control action "nope"/);
  });
});
