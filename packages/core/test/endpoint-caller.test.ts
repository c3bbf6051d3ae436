import type { ServerResponse } from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import { HttpError, MediaServer, StatusError, UnexpectedAnswerError } from '../src/index.js';
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
  });

  it('still takes hardware answers, which have no envelope, as they are', async () => {
    const ms = await clientOf([json(200, { message: 'ok' })]);
    await expect(ms.hardware.chassis.powerOn()).resolves.toEqual({ message: 'ok' });
  });
});
