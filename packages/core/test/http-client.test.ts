import { execFile } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AbortedError,
  AuthError,
  ConfirmationRequiredError,
  ConnectionError,
  HttpError,
  MediaServer,
  NotFoundError,
  StagelinkError,
  StalledAnswerError,
  StatusError,
  TimeoutError,
  UnexpectedAnswerError,
  isUnreachable,
} from '../src/index.js';
import { HttpClient, MAX_ANSWER_BYTES } from '../src/http/http-client.js';
import { json, ok, reset, silence, stallAfterHeaders, startScriptedServer, type Reply, type ScriptedServer } from './support/scripted-server.js';

const health = { status: ok, result: [] };
let cleanup: (() => unknown)[] = [];

afterEach(async () => {
  await Promise.all(cleanup.map((close) => close()));
  cleanup = [];
});

/** A loopback address where nothing listens: connecting to it is refused. */
async function freePort(): Promise<string> {
  const server = await startScriptedServer([]);
  await server.close();
  return server.url;
}

/**
 * Counts the connections undici tried to open to `url` and could not, from undici's own diagnostics channel:
 * each one is an attempt that never reached a server.
 */
function countRefusedConnections(url: string, onRefused: () => void = () => undefined): { readonly count: number } {
  const port = Number(new URL(url).port);
  let count = 0;
  const listener = (message: unknown): void => {
    if (Number((message as { connectParams: { port: string | number } }).connectParams.port) !== port) return;
    count++;
    onRefused();
  };
  subscribe('undici:client:connectError', listener);
  cleanup.push(() => unsubscribe('undici:client:connectError', listener));
  return {
    get count() {
      return count;
    },
  };
}

async function serverAnswering(...replies: Parameters<typeof startScriptedServer>[0]) {
  const server = await startScriptedServer(replies, json(200, health));
  const ms = new MediaServer({ host: server.url, timeoutMs: 2000 });
  cleanup.push(() => ms.close(), () => server.close());
  return { server, ms };
}

describe('answers larger than any answer of the API', () => {
  /** A service at the address that sends far more than any API answer, as fast as the client takes it. */
  const flood: Reply = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1024 * 1024, ' ');
    let left = MAX_ANSWER_BYTES / chunk.length + 4;
    const pump = (): void => {
      while (left > 0 && !res.destroyed) {
        left--;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  };
  const declaresTooMuch: Reply = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(MAX_ANSWER_BYTES + 1) });
    res.write('{');
  };

  it.each([
    ['streams past the bound', flood],
    ['declares more than the bound', declaresTooMuch],
  ])('refuses an answer that %s as not the API, without holding it all', async (_what, reply) => {
    const { ms } = await serverAnswering(reply);
    const error = await ms.status.health({ timeoutMs: 20_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect((error as Error).message).toMatch(/answered with a body that .*, more than any answer of the API/);
    expect(isUnreachable(error)).toBe(false);
    // The machine itself is fine: the next answer of a normal size arrives.
    await expect(ms.status.health()).resolves.toEqual([]);
  }, 30_000);
});

describe('retries', () => {
  it('turns two 503 answers and a 200 into one successful GET', async () => {
    const { server, ms } = await serverAnswering(json(503, 'busy'), json(503, 'busy'));
    await expect(ms.status.health()).resolves.toEqual([]);
    expect(server.received).toHaveLength(3);
  });

  it('gives up on a GET after the configured retries and reports the status', async () => {
    const { server, ms } = await serverAnswering(json(500, 'a'), json(500, 'b'), json(500, 'c'), json(500, 'd'));
    await expect(ms.status.health()).rejects.toBeInstanceOf(HttpError);
    expect(server.received).toHaveLength(3);
  });

  it('retries a GET whose connection was reset', async () => {
    const { server, ms } = await serverAnswering(reset);
    await expect(ms.status.health()).resolves.toEqual([]);
    expect(server.received).toHaveLength(2);
  });

  it('never resends a cue whose connection was reset: the server may have acted on it', async () => {
    const { server, ms } = await serverAnswering(reset);
    const error = await ms.transport.play({ name: 'main' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ mayHaveReachedServer: true });
    expect(server.received).toHaveLength(1);
  });

  it('never resends a cue answered with 503', async () => {
    const { server, ms } = await serverAnswering(json(503, 'busy'));
    await expect(ms.transport.play({ name: 'main' })).rejects.toBeInstanceOf(HttpError);
    expect(server.received).toHaveLength(1);
  });

  it.each([
    [400, HttpError],
    [401, AuthError],
    [404, NotFoundError],
  ])('sends a request answered %i exactly once', async (status, errorClass) => {
    const { server, ms } = await serverAnswering(json(status, { message: 'no' }));
    await expect(ms.status.health()).rejects.toBeInstanceOf(errorClass);
    expect(server.received).toHaveLength(1);
  });

  it('retries a cue that could not connect at all as often as allowed, and says which machine was unreachable', async () => {
    const closedPort = await freePort();
    const refused = countRefusedConnections(closedPort);
    const ms = new MediaServer({ host: closedPort, timeoutMs: 2000, retries: 2 });
    cleanup.push(() => ms.close());
    const error = await ms.transport.play({ name: 'main' }).catch((e: unknown) => e);
    expect(refused.count).toBe(3);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ mayHaveReachedServer: false });
    expect((error as Error).message).toContain(new URL(closedPort).host);
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('sends a cue when the machine refused the first connection and is up for the retry', async () => {
    const address = await freePort();
    let starting: Promise<ScriptedServer> | undefined;
    // The machine comes up as soon as it has refused (it listens before any back-off ends): only the retry can reach it.
    const refused = countRefusedConnections(address, () => {
      starting ??= startScriptedServer([], undefined, Number(new URL(address).port)).then((server) => {
        cleanup.push(() => server.close());
        return server;
      });
    });
    const ms = new MediaServer({ host: address, timeoutMs: 2000, retries: 2 });
    cleanup.push(() => ms.close());
    await expect(ms.transport.play({ name: 'main' })).resolves.toBeUndefined();
    expect(refused.count).toBe(1);
    expect((await starting)?.received).toEqual([{ method: 'POST', url: '/api/session/transport/play', body: '{"transports":[{"name":"main"}]}' }]);
  });
});

describe('deadlines and cancellation', () => {
  it('gives TimeoutError once the call deadline passes when the server never answers, without a retry', async () => {
    const server = await startScriptedServer([], silence);
    // A client deadline far above the call's: only the call's 300 ms can end it within the bound.
    const ms = new MediaServer({ host: server.url, timeoutMs: 10_000, retries: 2 });
    cleanup.push(() => ms.close(), () => server.close());
    const started = performance.now();
    const error = await ms.status.health({ timeoutMs: 300 }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(300);
    expect(server.received).toHaveLength(1);
  });

  it('tells an answer whose body stopped after its headers from no answer, within the call deadline, and keeps the link up', async () => {
    const { server, ms } = await serverAnswering(stallAfterHeaders);
    const started = performance.now();
    const error = await ms.transport.transports({ timeoutMs: 300 }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(error).toBeInstanceOf(StalledAnswerError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'STAGELINK_ERR_STALLED_ANSWER', timeoutMs: 300, method: 'GET', url: `${server.url}/api/session/transport/transports` });
    expect((error as Error).message).toMatch(/reachable, but large answers do not get through\. Check the show network's MTU/);
    expect(isUnreachable(error)).toBe(false);
    expect(ms.linkDown).toBeUndefined();
    // Small answers still arrive, and the stalled read was not sent again.
    await expect(ms.status.health()).resolves.toEqual([]);
    expect(server.received.map((request) => request.url)).toEqual(['/api/session/transport/transports', '/api/session/status/health']);
  });

  it('gives TimeoutError, not a stalled answer, when the deadline passes in the back-off after an answer', async () => {
    const busy = json(503, 'busy');
    const { server } = await serverAnswering(busy, busy, busy, busy, busy, busy, busy, busy);
    const patient = new MediaServer({ host: server.url, timeoutMs: 150, retries: 8 });
    cleanup.push(() => patient.close());
    const error = await patient.status.health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('gives AbortedError when the caller aborts', async () => {
    const { ms } = await serverAnswering(silence);
    const controller = new AbortController();
    const pending = ms.status.health({ signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
  });

  it('ends the back-off before a retry as soon as the deadline passes', async () => {
    const busy = json(503, 'busy');
    const { server } = await serverAnswering(busy, busy, busy, busy, busy, busy, busy, busy);
    const patient = new MediaServer({ host: server.url, timeoutMs: 150, retries: 8 });
    cleanup.push(() => patient.close());
    const started = performance.now();
    await expect(patient.status.health()).rejects.toBeInstanceOf(TimeoutError);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("ends a short call at its own deadline while a call with a long one is in flight", async () => {
    const { ms } = await serverAnswering(silence, silence);
    const controller = new AbortController();
    let longSettled = false;
    const long = ms.status.health({ timeoutMs: 60_000, signal: controller.signal }).finally(() => (longSettled = true));
    const error = await ms.status.health({ timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ timeoutMs: 300 });
    expect(error).toBeInstanceOf(TimeoutError);
    expect(longSettled).toBe(false);
    controller.abort();
    await expect(long).rejects.toBeInstanceOf(AbortedError);
  });

  it('ends a call at its deadline when a call before it, with an earlier deadline, was answered', async () => {
    const { ms } = await serverAnswering(json(200, health), silence);
    // The first call's deadline passes while the second is waiting: the second's own deadline must still end it.
    await expect(ms.status.health({ timeoutMs: 200 })).resolves.toEqual([]);
    const error = await ms.status.health({ timeoutMs: 600 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeoutMs: 600 });
  });

  it('still ends a call at its deadline when the client is closed while the call waits', async () => {
    const { ms } = await serverAnswering(silence);
    const pending = ms.status.health({ timeoutMs: 500 }).catch((e: unknown) => e);
    const closing = ms.close();
    expect(await pending).toBeInstanceOf(TimeoutError);
    await expect(closing).resolves.toBeUndefined();
  });

  it('keeps no timer that holds the process open while no call is in flight, and none once closed', async () => {
    const { server } = await serverAnswering();
    // In a process of its own, so that the timers counted are the client's alone.
    const script = `
      import { MediaServer } from ${JSON.stringify(new URL('../dist/index.mjs', import.meta.url).href)};
      const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
      const ms = new MediaServer({ host: ${JSON.stringify(server.url)}, timeoutMs: 60000 });
      await ms.status.health();
      await ms.transport.play({ name: 'main' });
      const idle = timers();
      await ms.close();
      setImmediate(() => console.log(JSON.stringify({ idle, closed: timers() })));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual({ idle: 0, closed: 0 });
  });

  it('sends nothing when the signal is already aborted', async () => {
    const { server, ms } = await serverAnswering();
    await expect(ms.status.health({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortedError);
    expect(server.received).toHaveLength(0);
  });
});

describe('closing', () => {
  it('closes a MediaServer twice without an error', async () => {
    const { ms } = await serverAnswering();
    await ms.status.health();
    await ms.close();
    await expect(ms.close()).resolves.toBeUndefined();
  });

  it('says a call after close was not sent because the client was closed, not that the machine is unreachable', async () => {
    const { server, ms } = await serverAnswering();
    await ms.close();
    const error = await ms.transport.play({ name: 'main' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StagelinkError);
    expect((error as Error).message).toMatch(/was not sent: this client was closed/);
    expect(server.received).toHaveLength(0);
  });
});

describe('connections', () => {
  it('keeps connections alive: twenty calls in a row to one machine open at most two', async () => {
    const { server, ms } = await serverAnswering();
    for (let call = 0; call < 20; call++) await ms.status.health();
    expect(server.received).toHaveLength(20);
    // undici frees a connection just after its answer is read, so the next call may open a second one; never more.
    expect(server.connections).toBeLessThanOrEqual(2);
  });

  it('gives each MediaServer its own pool: closing one leaves the other connected', async () => {
    const { server, ms } = await serverAnswering();
    const other = new MediaServer({ host: server.url });
    cleanup.push(() => other.close());
    await ms.status.health();
    await other.status.health();
    expect(server.connections).toBe(2);
    await ms.close();
    await expect(other.status.health()).resolves.toEqual([]);
    expect(server.connections).toBe(2);
  });
});

describe('answers', () => {
  it('turns a non-zero envelope code into StatusError with the server message', async () => {
    const { ms } = await serverAnswering(json(200, { status: { code: 5, message: 'Transport "x" not found', details: [] } }));
    const error = await ms.transport.play({ name: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StatusError);
    expect(error).toMatchObject({ statusCode: 5, code: 'STAGELINK_ERR_REFUSED' });
    expect((error as Error).message).toContain('Transport "x" not found');
  });

  it('says a login is required when a hardware write answers 401', async () => {
    const { server, ms } = await serverAnswering(json(401, { message: 'login required' }));
    const error = await ms.hardwareOf({ host: server.url }).localMachine.set({ hostname: 'a', serial: 'b', type: 'c' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toMatch(/login required/);
  });

  it('keeps a uint64 uid as the exact string the server sent', async () => {
    const uid = '18446744073709551615';
    const { ms } = await serverAnswering(json(200, { status: ok, result: { note: { uid, name: 'n' }, text: 't' } }));
    const note = await ms.notes.get({ uid });
    expect(note.note.uid).toBe(uid);
  });
});

describe('what is sent', () => {
  it('sends to the address the client was moved to, under its path prefix, with a query only when one is given', async () => {
    const first = await startScriptedServer([]);
    const second = await startScriptedServer([]);
    const http = new HttpClient({ baseUrl: `${first.url}/api/`, retries: 0 });
    cleanup.push(() => http.close(), () => first.close(), () => second.close());
    await http.request({ method: 'GET', path: '/status', query: { page: 2, left: undefined } });
    // What a director follower does when the role moves: the next request goes to the new machine.
    http.baseUrl = `${second.url}/v2`;
    await http.request({ method: 'POST', path: '/cue', body: { go: true } });
    await http.request({ method: 'GET', path: '/status', query: { left: undefined } });
    expect(first.received).toEqual([{ method: 'GET', url: '/api/status?page=2', body: '' }]);
    expect(second.received).toEqual([
      { method: 'POST', url: '/v2/cue', body: '{"go":true}' },
      { method: 'GET', url: '/v2/status', body: '' },
    ]);
  });

  it('does not send a guarded operation without confirm', async () => {
    const { server, ms } = await serverAnswering();
    await expect(ms.hardwareOf({ host: server.url }).chassis.powerOff({})).rejects.toBeInstanceOf(ConfirmationRequiredError);
    await expect(ms.hardwareOf({ host: server.url }).smc.clearAll({ confirm: false })).rejects.toBeInstanceOf(ConfirmationRequiredError);
    expect(server.received).toHaveLength(0);
  });

  it('sends a guarded operation with confirm', async () => {
    const { server, ms } = await serverAnswering(json(200, { message: 'ok' }));
    await expect(ms.hardwareOf({ host: server.url }).chassis.powerCycle({ confirm: true })).resolves.toEqual({ message: 'ok' });
    expect(server.received[0]).toMatchObject({ method: 'POST', url: '/api/chassis/power/cycle' });
  });

  it('sends a MAC as one encoded path segment', async () => {
    const { server, ms } = await serverAnswering(json(200, {}));
    await ms.hardware.networkAdapters.get('../smc/clear/all');
    expect(server.received[0]?.url).toBe('/api/networkadapters/%2E%2E%2Fsmc%2Fclear%2Fall');
  });

  it('sends uids as strings and keeps names that look like numbers as names', async () => {
    const { server, ms } = await serverAnswering();
    await ms.transport.gotoTrack({ transport: { uid: '18446744073709551615' }, track: { name: '42' }, playmode: 'play' });
    expect(JSON.parse(server.received[0]?.body ?? '')).toEqual({
      transports: [{ transport: { uid: '18446744073709551615' }, track: { name: '42' }, playmode: 'Play' }],
    });
  });

  it('cuts OLED messages to 200 characters and warns', async () => {
    const warnings: string[] = [];
    const server = await startScriptedServer([], (_req, res, body) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(body);
    });
    const ms = new MediaServer({ host: server.url, logger: { warn: (m) => warnings.push(m) } });
    cleanup.push(() => ms.close(), () => server.close());
    const result = await ms.hardwareOf({ host: server.url }).oled.notify({ title: 'Hi', message: 'x'.repeat(250) });
    expect(result.truncated).toBe(true);
    expect((JSON.parse(server.received[0]?.body ?? '') as { message: string }).message).toHaveLength(200);
    expect(warnings).toHaveLength(1);
  });

  it('counts OLED characters as the device does, never cutting one in half', async () => {
    const server = await startScriptedServer([], (_req, res, body) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(body);
    });
    const ms = new MediaServer({ host: server.url, logger: { warn: () => undefined } });
    cleanup.push(() => ms.close(), () => server.close());
    const sent = () => (JSON.parse(server.received.at(-1)?.body ?? '') as { message: string }).message;
    expect((await ms.hardwareOf({ host: server.url }).oled.notify({ title: 'House', message: '🎭'.repeat(150) })).truncated).toBe(false);
    expect([...sent()]).toHaveLength(150);
    expect((await ms.hardwareOf({ host: server.url }).oled.notify({ title: 'House', message: `a${'🎭'.repeat(250)}` })).truncated).toBe(true);
    expect(sent()).toBe(`a${'🎭'.repeat(199)}`);
  });
});

describe('transport commands by name', () => {
  it('sends each command with the fields it needs, in the spec body shape', async () => {
    const { server, ms } = await serverAnswering();
    await ms.transport.send('gototag', { name: 'main' }, { tagType: 'tc', tagValue: 'A', playmode: 'loop section' });
    await ms.transport.send('volume', [{ name: 'main' }, { uid: '7' }], { volume: 0.5 });
    await ms.transport.send('stop', { name: 'main' });
    expect(server.received.map((r) => [r.url, JSON.parse(r.body) as unknown])).toEqual([
      ['/api/session/transport/gototag', { transports: [{ transport: { name: 'main' }, type: 'TC', value: 'A', allowGlobalJump: false, playmode: 'Loop' }] }],
      ['/api/session/transport/volume', { transports: [{ transport: { name: 'main' }, volume: 0.5 }, { transport: { uid: '7' }, volume: 0.5 }] }],
      ['/api/session/transport/stop', { transports: [{ name: 'main' }] }],
    ]);
  });

  it('sends nothing when a needed field or the command is wrong', async () => {
    const { server, ms } = await serverAnswering();
    await expect(ms.transport.send('gototrack', { name: 'main' }, {})).rejects.toThrow(/gototrack command needs track/);
    await expect(ms.transport.send('explode', { name: 'main' })).rejects.toThrow(/not a transport command/);
    expect(server.received).toHaveLength(0);
  });
});

describe('TRANSPORT_COMMANDS', () => {
  it('names exactly the transport POST endpoints of the catalogue', async () => {
    const { TRANSPORT_COMMAND_NAMES, endpointList } = await import('../src/index.js');
    const posts = endpointList.filter((e) => e.group === 'transport' && e.method === 'POST').map((e) => e.path.split('/').at(-1));
    expect([...TRANSPORT_COMMAND_NAMES].sort()).toEqual(posts.sort());
  });
});
