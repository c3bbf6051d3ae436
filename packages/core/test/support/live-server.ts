import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A real live-update server on loopback that answers every connection, then either drops it at once (a crash
 * loop) or holds it until told to drop it.
 */
export async function startLiveServer() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const state = { connections: 0, hold: false, held: undefined as WebSocket | undefined };
  wss.on('connection', (ws) => {
    state.connections++;
    ws.send(JSON.stringify({ subscriptions: [] }));
    if (state.hold) state.held = ws;
    else ws.close();
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    state,
    close: () => new Promise<void>((resolve) => wss.close(() => resolve())),
  };
}
