import { afterEach, describe, expect, it } from 'vitest';
import { AbortedError, ConnectionError, MediaServer } from '../src/index.js';
import { startScriptedServer, type ScriptedServer } from './support/scripted-server.js';

describe('cues while the server does not answer', () => {
  let server: ScriptedServer | undefined;
  let ms: MediaServer | undefined;

  afterEach(async () => {
    await ms?.close();
    await server?.close();
  });

  /**
   * A client whose cue has just found its server down (nothing listens on the port), and a way to bring the
   * server up at the same address. Its one question before a cue gets seconds rather than the default 150 ms:
   * a server that is back must be heard even on a busy machine (a refused port answers at once either way).
   */
  async function afterRefusedCue(options: { retries?: number } = {}): Promise<{ client: MediaServer; serverBack: () => Promise<ScriptedServer> }> {
    const probe = await startScriptedServer([]);
    const port = Number(new URL(probe.url).port);
    await probe.close();
    const client = new MediaServer({ host: `http://127.0.0.1:${port}`, linkProbeTimeoutMs: 5000, ...options });
    ms = client;
    await expect(client.transport.play({ name: 'main' })).rejects.toBeInstanceOf(ConnectionError);
    return { client, serverBack: async () => (server = await startScriptedServer([], undefined, port)) };
  }

  it('are refused without being sent while it still does not answer, and go out the moment it answers again', async () => {
    const { client, serverBack } = await afterRefusedCue();
    expect(client.linkDown?.reason).toMatch(/ECONNREFUSED/);
    await expect(client.transport.play({ name: 'main' })).rejects.toThrow(
      /POST .*\/play was not sent: the server has not answered since .* A cue is never held back to land late/,
    );

    const back = await serverBack();
    await client.transport.play({ name: 'main' });
    // One brief question first, then the cue itself.
    expect(back.received.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /api/session/status/session',
      'POST /api/session/transport/play',
    ]);
    expect(client.linkDown).toBeUndefined();
  });

  it('do not stop reads: a read still asks the server while the link is down', async () => {
    const { client, serverBack } = await afterRefusedCue({ retries: 0 });
    const back = await serverBack();
    await client.status.health().catch(() => undefined);
    expect(back.received.map((request) => request.url)).toContain('/api/session/status/health');
    expect(client.linkDown).toBeUndefined();
  });

  it('stay refused after a call the caller aborted, which says nothing of the server', async () => {
    const { client } = await afterRefusedCue({ retries: 0 });
    const polled = new AbortController();
    const poll = client.status.health({ signal: polled.signal });
    polled.abort();
    await expect(poll).rejects.toBeInstanceOf(AbortedError);
    await expect(client.status.health({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortedError);
    expect(client.linkDown?.reason).toMatch(/ECONNREFUSED/);
    await expect(client.transport.play({ name: 'main' })).rejects.toThrow(/was not sent: the server has not answered since/);
  });

  it('can be sent anyway when the caller asks', async () => {
    const { client, serverBack } = await afterRefusedCue({ retries: 0 });
    const back = await serverBack();
    await client.transport.play({ name: 'main' }, { failFast: false });
    expect(back.received.map((request) => request.url)).toContain('/api/session/transport/play');
  });
});
