import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError, MediaServer } from '../src/index.js';
import { startScriptedServer, type ScriptedServer } from './support/scripted-server.js';

describe('cues while the server does not answer', () => {
  let server: ScriptedServer | undefined;
  let ms: MediaServer | undefined;

  afterEach(async () => {
    await ms?.close();
    await server?.close();
  });

  /** A port where nothing listens: the server is down. */
  async function downPort(): Promise<number> {
    const probe = await startScriptedServer([]);
    const port = Number(new URL(probe.url).port);
    await probe.close();
    return port;
  }

  it('are refused at once, without a request, until the server answers again; then they go out', async () => {
    const port = await downPort();
    ms = new MediaServer({ host: `http://127.0.0.1:${port}` });
    await expect(ms.transport.play({ name: 'main' })).rejects.toBeInstanceOf(ConnectionError);
    expect(ms.linkDown?.reason).toMatch(/ECONNREFUSED/);

    server = await startScriptedServer([], undefined, port);
    const refused = ms.transport.play({ name: 'main' });
    await expect(refused).rejects.toThrow(/POST .*\/play was not sent: the server has not answered since .* A cue is never held back to land late/);
    // The refusal asked the server once more in the background; its answer brings the link back.
    await vi.waitFor(() => expect(ms?.linkDown).toBeUndefined());
    expect(server.received.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /api/session/status/session']);
    const played = server.received.length;
    await ms.transport.play({ name: 'main' });
    expect(server.received.slice(played).map((request) => `${request.method} ${request.url}`)).toEqual(['POST /api/session/transport/play']);
  });

  it('do not stop reads: a read still asks the server while the link is down', async () => {
    const port = await downPort();
    ms = new MediaServer({ host: `http://127.0.0.1:${port}`, retries: 0 });
    await expect(ms.transport.stop({ name: 'main' })).rejects.toBeInstanceOf(ConnectionError);
    server = await startScriptedServer([], undefined, port);
    await ms.status.health().catch(() => undefined);
    expect(server.received.map((request) => request.url)).toContain('/api/session/status/health');
    expect(ms.linkDown).toBeUndefined();
  });

  it('can be sent anyway when the caller asks', async () => {
    const port = await downPort();
    ms = new MediaServer({ host: `http://127.0.0.1:${port}`, retries: 0 });
    await expect(ms.transport.play({ name: 'main' })).rejects.toBeInstanceOf(ConnectionError);
    server = await startScriptedServer([], undefined, port);
    await ms.transport.play({ name: 'main' }, { failFast: false });
    expect(server.received.map((request) => request.url)).toContain('/api/session/transport/play');
  });
});
