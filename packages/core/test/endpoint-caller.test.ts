import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { HttpClient } from '../src/http/http-client.js';
import { endpoints } from '../src/media-server/catalogue.js';
import { EndpointCaller, type DirectorCheck } from '../src/media-server/endpoint-caller.js';
import { AbortedError, HttpError, MediaServer, StatusError, TimeoutError, UnexpectedAnswerError } from '../src/index.js';
import { json, startScriptedServer, type Reply } from './support/scripted-server.js';

/** A client of a server that answers with `replies`, both closed when the test ends. */
async function clientOf(replies: Reply[]): Promise<MediaServer> {
  const server = await startScriptedServer(replies);
  const ms = new MediaServer({ host: server.url, timeoutMs: 2000 });
  onTestFinished(async () => {
    await ms.close();
    await server.close();
  });
  return ms;
}

describe('errors from answers a broken server gives (hardening)', () => {
  it('reports a 500 whose body is nested too deeply to show as an HttpError, not a RangeError', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const ms = await clientOf([
      (_req, res) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(deep);
      },
    ]);
    const failure = ms.transport.play({ name: 'main' });
    await expect(failure).rejects.toBeInstanceOf(HttpError);
    await expect(failure).rejects.toThrow(/answered 500.*too large or too deeply nested/);
  });
});

describe('answers that are not the API speaking (hardening)', () => {
  const raw = (status: number, text: string) => (_req: unknown, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(text);
  };

  it('refuses a 2xx session answer without the status envelope instead of returning undefined fields', async () => {
    const answers = [raw(200, '{"status":{"code":0,"message":""},"result":[{"na'), raw(200, '<html>proxy</html>'), raw(200, ''), raw(200, 'null'), raw(200, '[1]'), json(200, { status: 'fine' }), json(200, { result: [] })];
    const ms = await clientOf(answers);
    for (let index = 0; index < answers.length; index++) {
      const failure = ms.status.health();
      await expect(failure).rejects.toBeInstanceOf(UnexpectedAnswerError);
      await expect(failure).rejects.toThrow(/answered 200 with .* instead of the API's JSON envelope/);
    }
  });

  it('says a refusal gave no reason when its message is not text, rather than [object Object]', async () => {
    const ms = await clientOf([json(200, { status: { code: 5, message: { text: 'x' }, details: [] } })]);
    const failure = ms.transport.play({ name: 'main' });
    await expect(failure).rejects.toBeInstanceOf(StatusError);
    await expect(failure).rejects.toThrow(/refused by the server: no reason given \(status code 5\)/);
    await expect(failure).rejects.toMatchObject({ reason: undefined });
  });

  it('still takes hardware answers, which have no envelope, as they are', async () => {
    const ms = await clientOf([json(200, { message: 'ok' })]);
    await expect(ms.hardwareOf({ host: ms.host }).chassis.powerOn()).resolves.toEqual({ message: 'ok' });
  });
});

describe('one deadline for a GO through a director follower, the director check included', () => {
  const notTheDirector = json(200, { status: { code: 1, message: 'Not the director: ask DIRECTOR02', details: [] } });
  const never = new Promise<never>(() => undefined);

  /** A caller to a server that refuses the first cue as "not the director", following `director`. */
  async function callerVia(director: DirectorCheck, timeoutMs: number, refusal: Reply = notTheDirector) {
    const server = await startScriptedServer([refusal]);
    const http = new HttpClient({ baseUrl: server.url, timeoutMs, retries: 0 });
    onTestFinished(async () => {
      await http.close();
      await server.close();
    });
    const posts = () => server.received.filter((request) => request.method === 'POST').length;
    return { caller: new EndpointCaller(http, director), posts };
  }

  /** A follower whose check, once `checking` ends, has found the director on another machine. */
  function movingDirector(checking: () => Promise<unknown>): DirectorCheck {
    const director = { current: 'http://old-director', ready: () => Promise.resolve(), check: () => checking().then(() => ((director.current = 'http://new-director'), true)) };
    return director;
  }

  /** Whether `call` settled within `ms`, and how. */
  const settledWithin = (call: Promise<unknown>, ms: number) => Promise.race([call.then(() => 'resolved', (error: unknown) => error), delay(ms).then(() => 'still waiting')]);

  it('does not resend a cue once its deadline has passed, however late the director check says the director moved', async () => {
    const director = movingDirector(() => delay(600));
    const { caller, posts } = await callerVia(director, 300);
    await expect(caller.call(endpoints.play, { body: { transports: [{ name: 'main' }] } })).rejects.toBeInstanceOf(StatusError);
    await delay(700);
    expect(posts()).toBe(1);
  });

  it('still resends a refused cue to the new director when the check answers within the deadline', async () => {
    const director = movingDirector(() => delay(50));
    const { caller, posts } = await callerVia(director, 5000);
    await caller.call(endpoints.play, { body: { transports: [{ name: 'main' }] } });
    expect(posts()).toBe(2);
  });

  it('resends a cue refused by the old director once when the periodic check moved the session while it was on its way', async () => {
    // The move was seen by the follower's own check: the one this call asks for finds the director where it now is.
    const director = { current: 'http://old-director', ready: () => Promise.resolve(), check: () => Promise.resolve(false) };
    const { caller, posts } = await callerVia(director, 5000, (req, res, body) => {
      director.current = 'http://new-director';
      notTheDirector(req, res, body);
    });
    await caller.call(endpoints.play, { body: { transports: [{ name: 'main' }] } });
    expect(posts()).toBe(2);
  });

  it('does not resend a refused cue when the director is still where the cue went', async () => {
    const director = { current: 'http://director', ready: () => Promise.resolve(), check: () => Promise.resolve(false) };
    const { caller, posts } = await callerVia(director, 5000);
    await expect(caller.call(endpoints.play, { body: { transports: [{ name: 'main' }] } })).rejects.toBeInstanceOf(StatusError);
    expect(posts()).toBe(1);
  });

  it('stops waiting for the director check the moment the caller aborts', async () => {
    const { caller, posts } = await callerVia({ current: 'http://director', ready: () => Promise.resolve(), check: () => never }, 60_000);
    const controller = new AbortController();
    const call = caller.call(endpoints.play, { body: { transports: [{ name: 'main' }] } }, { signal: controller.signal });
    await vi.waitFor(() => expect(posts()).toBe(1));
    controller.abort();
    expect(await settledWithin(call, 3000)).toBeInstanceOf(AbortedError);
  });

  it('counts the first search for the director within the deadline, and sends nothing when it does not end in time', async () => {
    const { caller, posts } = await callerVia({ current: 'http://director', ready: () => never, check: () => never }, 300);
    const failure = await settledWithin(caller.call(endpoints.play, { body: { transports: [{ name: 'main' }] } }), 3000);
    expect(failure).toBeInstanceOf(TimeoutError);
    expect((failure as Error).message).toMatch(/was not sent: the director of the session was still being looked for/);
    expect(posts()).toBe(0);
  });
});

describe('failures arrive as rejections, never as throws', () => {
  it('refuses an unconfirmed guarded call, a bad path id and a closed client through the promise it answers', async () => {
    const server = await startScriptedServer([]);
    const http = new HttpClient({ baseUrl: server.url, retries: 0 });
    onTestFinished(() => server.close());
    const caller = new EndpointCaller(http);
    const calls = [
      () => caller.call(endpoints.powerCycle, {}, {}),
      () => caller.call(endpoints.networkAdapterGet, { params: { mac: '' } }),
    ];
    for (const call of calls) await expect(call()).rejects.toBeInstanceOf(Error);
    await http.close();
    const afterClose = (): Promise<unknown> => http.request({ method: 'GET', path: '/api/session/status/health' });
    await expect(afterClose()).rejects.toThrow(/was not sent: this client was closed/);
    expect(server.received).toHaveLength(0);
  });
});
