import { afterEach, describe, expect, it } from 'vitest';
import {
  AbortedError,
  AuthError,
  ConnectionError,
  HttpError,
  InvalidInputError,
  isUnreachable,
  MediaServer,
  StagelinkError,
  StatusError,
  TimeoutError,
} from '../src/index.js';
import { json, silence, startScriptedServer } from './support/scripted-server.js';

let cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanup.map((close) => close()));
  cleanup = [];
});

/** Only the test of a server that never answers needs a short deadline: a busy machine must not time out the rest. */
function client(host: string, timeoutMs = 10_000): MediaServer {
  const ms = new MediaServer({ host, timeoutMs, retries: 0 });
  cleanup.push(() => ms.close());
  return ms;
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('the call should have failed'),
    (error: unknown) => error,
  );
}

describe('isUnreachable', () => {
  it('is true when the machine refuses the connection', async () => {
    const server = await startScriptedServer([]);
    const { url } = server;
    await server.close();
    const error = await failureOf(client(url).status.health());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(isUnreachable(error)).toBe(true);
  });

  it('is true when the machine does not answer in time', async () => {
    const server = await startScriptedServer([silence]);
    cleanup.push(() => server.close());
    const error = await failureOf(client(server.url, 300).status.health());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(isUnreachable(error)).toBe(true);
  });

  it('is false when the server answered with a refusal or an HTTP error', async () => {
    const server = await startScriptedServer([json(200, { status: { code: 5, message: 'Transport "x" not found.', details: [] } }), json(500, { message: 'boom' })]);
    cleanup.push(() => server.close());
    const ms = client(server.url);
    const refused = await failureOf(ms.transport.play({ name: 'x' }));
    expect(refused).toBeInstanceOf(StatusError);
    expect(isUnreachable(refused)).toBe(false);
    const broken = await failureOf(ms.status.health());
    expect(broken).toBeInstanceOf(HttpError);
    expect(isUnreachable(broken)).toBe(false);
  });

  it('is false for input refused before sending, an abort, and anything that is not a link error', async () => {
    const input = await failureOf(client('http://127.0.0.1:9').transport.play({}));
    expect(input).toBeInstanceOf(InvalidInputError);
    expect(isUnreachable(input)).toBe(false);
    for (const error of [new AuthError('login required', 401, {}), new AbortedError('aborted'), new StagelinkError('odd'), new TypeError('bug'), 'text', undefined]) {
      expect(isUnreachable(error)).toBe(false);
    }
  });
});

describe('error codes', () => {
  it('gives every error class its own stable name and code, which subclasses keep apart from their parents', async () => {
    const core = (await import('../src/index.js')) as Record<string, unknown>;
    const classes = Object.entries(core).filter(
      (entry): entry is [string, new (...args: never[]) => StagelinkError] =>
        typeof entry[1] === 'function' && (entry[1] === StagelinkError || (entry[1] as { prototype?: unknown }).prototype instanceof StagelinkError),
    );
    expect(classes.length).toBeGreaterThan(14);
    const made = classes.map(([exported, Class]) => ({ exported, error: new (Class as unknown as new (message: string) => StagelinkError)('x') }));
    for (const { exported, error } of made) {
      expect(error.name).toBe(exported);
      expect(error.code).toMatch(/^STAGELINK_ERR(_[A-Z]+)*$/);
    }
    expect(new Set(made.map(({ error }) => error.code)).size).toBe(made.length);
  });

  it('keeps a refusal\'s envelope code as statusCode', async () => {
    const server = await startScriptedServer([json(200, { status: { code: 4000, message: 'no', details: [] } })]);
    cleanup.push(() => server.close());
    const ms = client(server.url);
    const error = await failureOf(ms.transport.play({ name: 'main' }));
    expect(error).toMatchObject({ code: 'STAGELINK_ERR_REFUSED', statusCode: 4000 });
  });
});
