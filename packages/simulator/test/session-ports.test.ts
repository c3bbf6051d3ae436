import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../src/index.js';
import { SESSION_HOSTS } from '../src/state/seed/session.js';

async function listening(host: string, port: number): Promise<Server> {
  const server = createServer();
  server.listen(port, host);
  await once(server, 'listening');
  return server;
}

/** Every machine of the session scenario listens on its own loopback alias, all on the director's port. */
describe("the session scenario's port", () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it("fails on an asked port that another machine's address already has, and leaves none of its machines listening", async () => {
    const understudy = SESSION_HOSTS.understudies[0];
    const taken = await listening(understudy, 0);
    servers.push(taken);
    const { port } = taken.address() as AddressInfo;

    await expect(startSimulator({ scenario: 'session', port, drivePort: 0 })).rejects.toThrow(/EADDRINUSE/);

    // The machines that had started listening before it stopped again: their addresses take the port.
    for (const address of [SESSION_HOSTS.director, ...SESSION_HOSTS.actors]) servers.push(await listening(address, port));
  });

  it('starts every machine on one port the system picks', async () => {
    const sim = await startSimulator({ scenario: 'session', port: 0, drivePort: 0 });
    try {
      const ports = sim.machines().map((machine) => new URL(machine.url).port);
      expect(new Set(ports)).toEqual(new Set([String(sim.mediaServer.port)]));
    } finally {
      await sim.close();
    }
  });
});
