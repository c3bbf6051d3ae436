import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError, discoverDirector, DriveClient, MediaServer, type LiveStatus } from '../src/index.js';

/** A self-signed certificate for 127.0.0.1, as a show network's own machines often carry (P-256: quick to make on a busy machine). */
function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'stagelink-tls-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SOLO_SESSION = { status: { code: 0, message: '', details: [] }, result: { isRunningSolo: true, director: null, actors: [], understudies: [] } };

describe('https servers with their own certificate', () => {
  let tls: { key: string; cert: string };
  let server: Server;
  let url: string;

  beforeAll(async () => {
    tls = selfSigned();
    server = createServer(tls, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.url?.startsWith('/v1/') ? { data: [], meta: { current_page: 1, last_page: 1, per_page: 10, total: 0 } } : SOLO_SESSION));
    });
    const live = new WebSocketServer({ server });
    live.on('connection', (ws) => ws.send(JSON.stringify({ subscriptions: [] })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('are refused with a reason when their certificate is not trusted', async () => {
    const ms = new MediaServer({ host: url, retries: 0 });
    try {
      const reading = ms.status.session();
      await expect(reading).rejects.toBeInstanceOf(ConnectionError);
      await expect(reading).rejects.toThrow(/SELF_SIGNED_CERT\): its certificate is not trusted here: give the client the certificate authority/);
    } finally {
      await ms.close();
    }
  });

  it('answer requests and the live stream when their certificate is trusted as a CA', async () => {
    const ms = new MediaServer({ host: url, tls: { ca: tls.cert } });
    try {
      expect((await ms.status.session()).isRunningSolo).toBe(true);
      const online = new Promise<LiveStatus>((resolve) => {
        const subscription = ms.live.subscribe(ms.live.presets.localFps(), () => undefined, {
          onStatus: (status) => {
            if (status !== 'online') return;
            subscription.close();
            resolve(status);
          },
        });
      });
      expect(await online).toBe('online');
    } finally {
      await ms.close();
    }
  });

  it('are asked who directs the session by discovery, with the certificate trusted as the client trusts it', async () => {
    await expect(discoverDirector({ host: url, tls: { ca: tls.cert } })).resolves.toMatchObject({ url, solo: true, via: 'query' });
    await expect(discoverDirector({ host: url })).rejects.toThrow(/its certificate is not trusted here/);
  });

  it('reach a drive whose certificate is trusted', async () => {
    const drive = new DriveClient({ baseUrl: url, token: 'test-token-0123456789', tls: { ca: tls.cert } });
    try {
      expect((await drive.versions.list({ driveId: 'd', contentId: 'c' }).page()).data).toEqual([]);
    } finally {
      await drive.close();
    }
  });
});
