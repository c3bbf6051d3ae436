import { afterEach, describe, expect, it } from 'vitest';
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

  it('are refused without being sent while it still does not answer, and go out the moment it answers again', async () => {
    const port = await downPort();
    ms = new MediaServer({ host: `http://127.0.0.1:${port}` });
    await expect(ms.transport.play({ name: 'main' })).rejects.toBeInstanceOf(ConnectionError);
    expect(ms.linkDown?.reason).toMatch(/ECONNREFUSED/);
    await expect(ms.transport.play({ name: 'main' })).rejects.toThrow(
      /POST .*\/play was not sent: the server has not answered since .* A cue is never held back to land late/,
    );

    server = await startScriptedServer([], undefined, port);
    await ms.transport.play({ name: 'main' });
    // One brief question first, then the cue itself.
    expect(server.received.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /api/session/status/session',
      'POST /api/session/transport/play',
    ]);
    expect(ms.linkDown).toBeUndefined();
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
