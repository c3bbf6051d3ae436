import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface CountingRelay {
  /** `http://127.0.0.1:<port>`: give this to the client instead of the machine's address. */
  url: string;
  /** `METHOD /path` of every request line that went through, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A loopback TCP relay in front of one machine that notes every HTTP request line it passes on: what reached the
 * machine, including requests whose client gave up before the answer (the simulator logs a request only once it
 * has answered it, so a cue abandoned at its deadline is missing from its log).
 */
export async function startCountingRelay(target: string): Promise<CountingRelay> {
  const { hostname, port } = new URL(target);
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      for (const [, method, path] of chunk.toString('latin1').matchAll(/(GET|POST|PUT|DELETE) (\/\S*) HTTP\/1\.1\r\n/g)) requests.push(`${method} ${path}`);
    });
    client.pipe(upstream).pipe(client);
  });
  relay.listen(0, '127.0.0.1');
  await once(relay, 'listening');
  return {
    url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      relay.close();
      await once(relay, 'close');
    },
  };
}
