import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * An HTTP front door to a server that counts each request by method and path as it arrives, before the server
 * answers it. The simulator logs a request only once it answers it, and not at all when the client has gone by
 * then: a cue that took effect but whose client gave up waiting is counted here.
 */
export class CountingProxy {
  private constructor(
    private readonly server: Server,
    private readonly sockets: Set<Socket>,
    /** Requests arrived, by `METHOD path`. */
    private readonly counts: Map<string, number>,
    readonly url: string,
  ) {}

  static async start(upstream: string): Promise<CountingProxy> {
    const target = new URL(upstream);
    const counts = new Map<string, number>();
    const sockets = new Set<Socket>();
    const server = createServer((incoming, outgoing) => {
      const key = `${incoming.method ?? 'GET'} ${(incoming.url ?? '/').split('?')[0] ?? ''}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const forwarded = httpRequest({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      forwarded.on('error', () => outgoing.destroy());
      // A client that gave up closes its side: the server's answer has nowhere to go.
      outgoing.on('close', () => forwarded.destroy());
      incoming.pipe(forwarded);
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new CountingProxy(server, sockets, counts, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }

  /** Requests that arrived so far for `method` and `path` (the query left out). */
  arrived(method: string, path: string): number {
    return this.counts.get(`${method} ${path}`) ?? 0;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}
