import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface VenueHttps {
  /** The https origin that answers as the machine behind it. */
  url: string;
  /** The venue CA's certificate file, as a tls-config node names it. */
  caFile: string;
  close(): Promise<void>;
}

/**
 * A machine served over https as a venue serves it: a certificate for 127.0.0.1 signed by the venue's own CA
 * (not self-signed), in front of a plain-http origin such as the simulator's, whose requests and answers pass
 * through unchanged. P-256 keys: quick to make on a busy machine.
 */
export async function serveOverVenueHttps(origin: string): Promise<VenueHttps> {
  const dir = mkdtempSync(join(tmpdir(), 'stagelink-venue-'));
  const file = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { stdio: 'ignore' });
  };
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ecKey, '-days', '1', '-subj', '/CN=Venue CA', '-keyout', file('ca.key'), '-out', file('ca.pem'));
  openssl('req', '-new', ...ecKey, '-subj', '/CN=127.0.0.1', '-keyout', file('server.key'), '-out', file('server.csr'));
  writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl('x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-days', '1',
    '-extfile', file('server.ext'), '-out', file('server.pem'));
  const target = new URL(origin);
  const server = createServer({ key: readFileSync(file('server.key')), cert: readFileSync(file('server.pem')) }, (incoming, answer) => {
    const forwarded = request({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (reply) => {
      answer.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(answer);
    });
    forwarded.on('error', () => answer.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    caFile: file('ca.pem'),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
