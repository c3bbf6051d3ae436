/** A simulator and the packed module started against it in the stand-in for Companion. */
import { simControl, type ControlRequest, startSimulator, type Simulator, type SimulatorOptions } from '@stagelink/simulator';
import { test } from 'vitest';
import { CompanionHost, loadPackedModule, type PackedModule } from '../harness/testing.js';

export const SEED = 7;

let packed: Promise<PackedModule> | undefined;

/** The packed module, unpacked once per test file. */
export async function packedModule(): Promise<PackedModule> {
  packed ??= loadPackedModule();
  return packed;
}

/** A simulator in the dialect of the run (STAGELINK_SIM_DIALECT), on loopback. */
export async function startSim(port = 0, options: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ host: '127.0.0.1', port, drivePort: 0, seed: SEED, ...options });
}

export function configFor(sim: Simulator, extra: Record<string, string | number | boolean> = {}): Record<string, string | number | boolean> {
  return { host: sim.mediaServer.url, followDirector: true, backupHosts: '', hosts: '', smcs: '', smcUser: '', frameRate: 60, ...extra };
}

export async function startModule(sim: Simulator, extra: Record<string, string | number | boolean> = {}, secrets: Record<string, string> = {}): Promise<CompanionHost> {
  const host = new CompanionHost(await packedModule());
  await host.start({ config: configFor(sim, extra), secrets });
  return host;
}

/** Waits until the module reports ok and knows the session's machines and transports. */
export async function untilReady(host: CompanionHost): Promise<void> {
  await host.waitFor(() => host.status?.status === 'ok', 'status ok');
  await host.waitFor(() => Object.keys(host.variableDefinitions).some((id) => id.startsWith('transport_')), 'transport variables');
  await host.waitFor(() => Object.keys(host.variableDefinitions).some((id) => id.startsWith('machine_')), 'machine variables');
}

/** Sends a control action to the simulator (a fault, a director move) and waits for it to be taken. */
export async function control(sim: Simulator, request: ControlRequest, url = sim.mediaServer.url): Promise<void> {
  await simControl(url, request);
}

/**
 * `it` with a simulator and a ready module per test (`async ({ sim, host }) => ...`), stopped after it, the module
 * first.
 */
export const withReadyModule = test.extend<{ sim: Simulator; host: CompanionHost }>({
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern
  sim: async ({}, use) => {
    const sim = await startSim();
    try {
      await use(sim);
    } finally {
      await sim.close();
    }
  },
  host: async ({ sim }, use) => {
    const host = await startModule(sim);
    try {
      await untilReady(host);
      await use(host);
    } finally {
      await host.destroy();
    }
  },
});
