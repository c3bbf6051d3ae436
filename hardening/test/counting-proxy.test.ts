import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CountingProxy } from '../src/support/counting-proxy.js';

/** A server that answers GETs at once and POSTs only after `lateMs`. */
async function lateServer(lateMs: number): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const answer = (): void => void response.end('{"ok":true}');
    if (request.method === 'POST') setTimeout(answer, lateMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('CountingProxy', () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  it('counts a request when it arrives, also one whose client gave up before the answer', async () => {
    const { server, url } = await lateServer(1000);
    closing.push(() => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }));
    const proxy = await CountingProxy.start(url);
    closing.unshift(() => proxy.close());

    expect(await (await fetch(`${proxy.url}/api/session/status/session?x=1`)).json()).toEqual({ ok: true });
    await expect(fetch(`${proxy.url}/api/session/transport/play`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(100) })).rejects.toThrow();

    expect(proxy.arrived('GET', '/api/session/status/session')).toBe(1);
    expect(proxy.arrived('POST', '/api/session/transport/play')).toBe(1);
    expect(proxy.arrived('POST', '/api/session/transport/stop')).toBe(0);
  });
});
