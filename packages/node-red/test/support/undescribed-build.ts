import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_DESCRIPTION_PATH } from '@stagelink/core/protocol';

export interface UndescribedBuild {
  /** Where it answers, as a media server's address. */
  url: string;
  close(): Promise<void>;
}

/**
 * A director of an older build, which does not describe its API: the simulator at `target` (both of whose dialects
 * describe theirs) behind a relay that answers 404 for the description and passes every other request on as it
 * is. Point a client at it without following the director: the director the simulator names is itself.
 */
export async function startUndescribedBuild(target: string): Promise<UndescribedBuild> {
  const origin = new URL(target);
  const server = createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] === API_DESCRIPTION_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`No such endpoint: GET ${API_DESCRIPTION_PATH}.`);
      return;
    }
    const forward = request({ host: origin.hostname, port: origin.port, method: req.method, path: req.url, headers: { ...req.headers, host: origin.host } }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    forward.on('error', (error) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`relay: ${error.message}`);
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
