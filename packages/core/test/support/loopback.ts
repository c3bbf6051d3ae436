import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  url: string;
  /** Ends open connections too, so a client's keep-alive socket does not hold the test up. */
  close: () => Promise<void>;
}

/** Starts `server` on 127.0.0.1, on `port` or (0) a free one. */
export async function listenOnLoopback(server: Server, port = 0): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
