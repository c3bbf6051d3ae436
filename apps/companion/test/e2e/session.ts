/** A simulator and the packed module started against it in the stand-in for Companion. */
import { startSimulator, type Simulator } from '@stagelink/simulator';
import { CompanionHost, loadPackedModule, type PackedModule } from '../harness/testing.js';

export const SEED = 7;

let packed: Promise<PackedModule> | undefined;

/** The packed module, unpacked once per test file. */
export function packedModule(): Promise<PackedModule> {
  packed ??= loadPackedModule();
  return packed;
}

export async function startSim(port = 0): Promise<Simulator> {
  return startSimulator({ host: '127.0.0.1', port, drivePort: 0, seed: SEED });
}

export function configFor(sim: Simulator, extra: Record<string, string | number | boolean> = {}): Record<string, string | number | boolean> {
  return { host: sim.mediaServer.url, followDirector: true, hosts: '', smcHost: '', smcUser: '', frameRate: 60, ...extra };
}

export async function startModule(sim: Simulator, extra: Record<string, string | number | boolean> = {}): Promise<CompanionHost> {
  const host = new CompanionHost(await packedModule());
  await host.start({ config: configFor(sim, extra) });
  return host;
}

/** Waits until the module reports ok and knows the session's machines and transports. */
export async function untilReady(host: CompanionHost): Promise<void> {
  await host.waitFor(() => host.status?.status === 'ok', 'status ok');
  await host.waitFor(() => Object.keys(host.variableDefinitions).some((id) => id.startsWith('transport_')), 'transport variables');
  await host.waitFor(() => Object.keys(host.variableDefinitions).some((id) => id.startsWith('machine_')), 'machine variables');
}
