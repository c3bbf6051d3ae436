import { afterEach, describe, expect, it } from 'vitest';
import { AbortedError, ConnectionError, LateAnswerError, MediaServer, TimeoutError } from '../src/index.js';
import type { Transport } from '../src/media-server/types.js';
import { json, ok, silence, startScriptedServer, type ScriptedServer } from './support/scripted-server.js';

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
    const refused = client.transport.play({ name: 'main' });
    await expect(refused).rejects.toThrow(/POST .*\/play was not sent: the server has not answered since .* A cue is never held back to land late/);
    // What took the link down travels with the refusal, for a front end to name it in its own words.
    await expect(refused).rejects.toMatchObject({ cause: client.linkDown?.error });
    expect((client.linkDown?.error as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');

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

describe('the one question before a cue, while the server is known down', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  const transports = (playmode: Transport['playmode']) =>
    json(200, {
      status: ok,
      transports: [{ uid: 'uid-main', name: 'main', engaged: true, volume: 1, brightness: 1, playmode, currentTrack: { uid: 'uid-intro', name: 'Intro' }, receivingTimecode: false, setList: { uid: 'uid-set', name: 'set', tracks: [] } }],
      multitransports: [],
    });

  /**
   * A client that read the transports (stopped), then lost its server: a read got no answer, so the link is down,
   * and the next question before a cue is not answered either (within linkProbeTimeoutMs, far beyond the cue's).
   */
  async function clientWithLinkDown(replies: Parameters<typeof startScriptedServer>[0]) {
    const server = await startScriptedServer([transports('Stop'), silence, ...replies]);
    const ms = new MediaServer({ host: server.url, retries: 0, linkProbeTimeoutMs: 10_000 });
    open.push(server, ms);
    await ms.transport.transports({ timeoutMs: 10_000 });
    await expect(ms.status.health({ timeoutMs: 300 })).rejects.toBeInstanceOf(TimeoutError);
    expect(ms.linkDown).toBeDefined();
    return { ms, server };
  }

  it('waits for it no longer than the cue\'s deadline, and refuses the cue unsent', async () => {
    const { ms, server } = await clientWithLinkDown([silence]);
    const error = await ms.transport.play({ name: 'main' }, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ mayHaveReachedServer: false });
    expect((error as Error).message).toMatch(/play was not sent: the server, which had stopped answering, had not answered the one question asked before a cue when its deadline of 300 ms passed/);
    expect(server.received.map((request) => request.url)).not.toContain('/api/session/transport/play');
  });

  it('stops waiting for it when the caller aborts', async () => {
    const { ms, server } = await clientWithLinkDown([silence]);
    const error = await ms.transport.play({ name: 'main' }, { signal: AbortSignal.timeout(200), timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect(server.received.map((request) => request.url)).not.toContain('/api/session/transport/play');
  });

  it('reports a cue refused unsent as unsent, never as landed, though another cue went out meanwhile', async () => {
    // The question before the cue gets no answer; another cue, sent anyway, makes the transport play.
    const { ms } = await clientWithLinkDown([silence, silence, transports('Play')]);
    const refused = ms.transport.play({ name: 'main' }, { timeoutMs: 500 }).catch((e: unknown) => e);
    const other = ms.transport.play({ name: 'main' }, { failFast: false, timeoutMs: 2000 }).catch(() => undefined);
    const error = await refused;
    expect(error).not.toBeInstanceOf(LateAnswerError);
    expect(error).toMatchObject({ mayHaveReachedServer: false });
    expect((error as Error).message).toMatch(/was not sent/);
    await ms.close();
    await other;
  });
});
