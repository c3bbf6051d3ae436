import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A machine's management controller as its three read paths answer, counting every request. */
export interface FakeSmc {
  server: Server;
  url: string;
  requests: number;
}

const PATHS = ['/api/chassis/stats', '/api/chassis/power/status', '/api/vfcs'];

/** An SMC as its three read paths answer: readings as strings, power flags, three cards. Counts every request. */
export async function startFakeSmc(): Promise<FakeSmc> {
  const smc = { requests: 0 } as FakeSmc;
  const answers: Record<string, unknown> = {
    [PATHS[0] ?? '']: { 'System Power': 'on', 'Power Overload': 'false', 'Main Power Fault': 'false', 'Power Control Fault': 'false', 'Fan 1': '5400 RPM', 'Fan 2': '5150 RPM', 'CPU Temp': '44 degrees C', 'Inlet Temp': '23 degrees C' },
    [PATHS[1] ?? '']: { 'System Power': 'on', 'Power Overload': false, 'Main Power Fault': false, 'Power Control Fault': false },
    [PATHS[2] ?? '']: [
      { slot: 1, type: 'DP-4', status: 'ok' },
      { slot: 2, type: 'HDMI-4', status: 'ok' },
      { slot: 3, type: 'SDI-4', status: 'ok' },
    ],
  };
  smc.server = createServer((request, response) => {
    smc.requests += 1;
    const answer = answers[new URL(request.url ?? '/', 'http://smc').pathname];
    response.writeHead(answer === undefined ? 404 : 200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer ?? { message: 'not found' }));
  });
  smc.server.listen(0, '127.0.0.1');
  await once(smc.server, 'listening');
  smc.url = `http://127.0.0.1:${(smc.server.address() as AddressInfo).port}`;
  return smc;
}

export async function closeFakeSmc({ server }: FakeSmc): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
