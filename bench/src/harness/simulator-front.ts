import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LIVE_UPDATE_PATH } from '@stagelink/core/protocol';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A server in front of a simulator that stands in for part of a media server: its live-update sockets are served
 * by sessions of its own, and every request it does not answer itself goes to the simulator unchanged.
 */
export interface SimulatorFront<Session> {
  url: string;
  /** The live-update sockets open now. */
  readonly sessions: ReadonlySet<Session>;
  close(): Promise<void>;
}

export interface FrontOptions<Session> {
  /** One live-update socket's session, closed with the socket or with the front. */
  openSession: (socket: WebSocket) => Session;
  /** Answers a request itself (true) or leaves it to the simulator (false). */
  answer?: (request: IncomingMessage, response: ServerResponse) => boolean;
  /** How long an idle HTTP connection stays open; Node's 5 s unless given. */
  keepAliveMs?: number;
}

export async function startSimulatorFront<Session extends { close(): void }>(
  upstreamUrl: string,
  { openSession, answer = () => false, keepAliveMs }: FrontOptions<Session>,
): Promise<SimulatorFront<Session>> {
  const upstream = new URL(upstreamUrl);
  const sessions = new Set<Session>();
  const server = createServer((request, response) => {
    if (!answer(request, response)) forward(upstream, request, response);
  });
  if (keepAliveMs !== undefined) server.keepAliveTimeout = keepAliveMs;
  const sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  server.on('upgrade', (request: IncomingMessage, socket, head) => {
    if (new URL(request.url ?? '/', 'http://front').pathname !== LIVE_UPDATE_PATH) {
      socket.destroy();
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const session = openSession(ws);
      sessions.add(session);
      ws.on('close', () => sessions.delete(session));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sessions,
    close: async () => {
      for (const session of sessions) session.close();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function forward(upstream: URL, request: IncomingMessage, response: ServerResponse): void {
  const headers = { ...request.headers, host: upstream.host };
  const options = { host: upstream.hostname, port: upstream.port, path: request.url, method: request.method, headers };
  const forwarded = httpRequest(options, (reply) => {
    response.writeHead(reply.statusCode ?? 502, reply.headers);
    reply.pipe(response);
  });
  forwarded.on('error', () => {
    if (!response.headersSent) response.writeHead(502);
    response.end();
  });
  request.pipe(forwarded);
}
