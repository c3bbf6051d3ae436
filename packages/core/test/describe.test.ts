import { describe, expect, it, onTestFinished } from 'vitest';
import { ConfirmationRequiredError, InvalidInputError, MediaServer, NotDescribedError, NotOfferedError, cueFateOf } from '../src/index.js';
import { json, ok, startScriptedServer, type Reply } from './support/scripted-server.js';

const DESCRIPTION_PATH = '/docs/session/d3api.swagger.json';

/** A description as a shipping r34 director serves it: `transport/play` and one command core does not know. */
const r34Description = {
  swagger: '2.0',
  info: { title: 'd3 API', version: '2.0.3' },
  paths: {
    '/api/session/transport/play': { post: { summary: 'Play' } },
    '/api/session/somefamily/newcommand': { post: { summary: 'A command of a later build' } },
  },
};

async function clientOf(replies: Reply[]) {
  const server = await startScriptedServer(replies, json(200, { status: ok }));
  const ms = new MediaServer({ host: server.url, timeoutMs: 2000 });
  onTestFinished(async () => {
    await ms.close();
    await server.close();
  });
  return { ms, server };
}

describe("the director's own description", () => {
  it('lists its commands with their summaries, marking those core knows', async () => {
    const { ms } = await clientOf([json(200, r34Description)]);
    await expect(ms.describe()).resolves.toEqual({
      title: 'd3 API',
      version: '2.0.3',
      commands: [
        { method: 'POST', path: '/api/session/transport/play', summary: 'Play', known: true },
        { method: 'POST', path: '/api/session/somefamily/newcommand', summary: 'A command of a later build', known: false },
      ],
    });
  });

  it('reads paths under the base path a shipping director gives, and refuses nothing outside it', async () => {
    const described = { swagger: '2.0', info: { title: 'd3 API', version: '2.0.3' }, basePath: '/api/session', paths: { '/transport/play': { post: { summary: 'Play' } } } };
    const { ms, server } = await clientOf([json(200, described)]);
    await expect(ms.describe()).resolves.toMatchObject({ commands: [{ method: 'POST', path: '/api/session/transport/play', known: true }] });
    await ms.transport.play({ name: 'main' });
    await expect(ms.transport.setSpeed({ transport: { name: 'main' }, speed: 2 })).rejects.toBeInstanceOf(NotDescribedError);
    // The service family is served apart, and its description is not this one.
    await ms.system.osInfo().catch(() => undefined);
    expect(server.received.map((request) => request.url)).toEqual([DESCRIPTION_PATH, '/api/session/transport/play', '/api/service/system/osinfo']);
  });

  it('sends a command only the description offers by its path, its body checked against the description first', async () => {
    const newCommand = {
      post: {
        summary: 'A command of a later build',
        parameters: [{ in: 'body', name: 'body', schema: { type: 'object', required: ['layers'], properties: { layers: { type: 'array', items: { $ref: '#/definitions/Ref' } } } } }],
      },
    };
    const described = { ...r34Description, paths: { ...r34Description.paths, '/api/session/somefamily/newcommand': newCommand }, definitions: { Ref: { type: 'object', properties: { uid: { type: 'string' }, name: { type: 'string' } } } } };
    const { ms, server } = await clientOf([json(200, described), json(200, { status: ok, result: 'done' })]);
    const command = { path: 'somefamily/newcommand' };
    await expect(ms.callDescribed(command, { layer: [{ name: 'A' }] })).rejects.toThrow('body.layers is required; body.layer is not a field the director describes (it knows layers).');
    await expect(ms.callDescribed(command, { layers: [{ name: 5 }] })).rejects.toThrow('body.layers[0].name must be a string (got 5).');
    await expect(ms.callDescribed(command, { layers: [{ name: 'A' }] })).resolves.toMatchObject({ result: 'done' });
    await expect(ms.callDescribed({ path: 'somefamily/other' })).rejects.toBeInstanceOf(NotDescribedError);
    await expect(ms.callDescribed({ method: 'DELETE', path: 'somefamily/newcommand' })).rejects.toBeInstanceOf(InvalidInputError);
    expect(server.received.map((request) => `${request.method} ${request.url}`)).toEqual([`GET ${DESCRIPTION_PATH}`, 'POST /api/session/somefamily/newcommand']);
    expect(server.received[1]?.body).toBe('{"layers":[{"name":"A"}]}');
  });

  it('keeps the guards of a command core knows, sent by its path', async () => {
    const described = { ...r34Description, paths: { '/api/session/renderstream/stoplayers': { post: { summary: 'Stop' } } } };
    const { ms, server } = await clientOf([json(200, described)]);
    await expect(ms.callDescribed({ path: 'renderstream/stoplayers' }, { layers: [{ name: 'A' }] })).rejects.toBeInstanceOf(ConfirmationRequiredError);
    expect(server.received).toHaveLength(1);
  });

  it('reads the description once per director and keeps it', async () => {
    const { ms, server } = await clientOf([json(200, r34Description)]);
    await Promise.all([ms.describe(), ms.describe()]);
    await ms.describe();
    expect(server.received.filter((request) => request.url === DESCRIPTION_PATH)).toHaveLength(1);
  });

  it('reads it again once told the project reloaded', async () => {
    const { ms, server } = await clientOf([json(200, r34Description), json(200, { ...r34Description, info: { title: 'd3 API', version: '2.0.4' } })]);
    await ms.describe();
    ms.forgetDescription();
    await expect(ms.describe()).resolves.toMatchObject({ version: '2.0.4' });
    expect(server.received.filter((request) => request.url === DESCRIPTION_PATH)).toHaveLength(2);
  });

  it('refuses unsent a catalogue command the description lacks, naming the build version', async () => {
    const { ms, server } = await clientOf([json(200, r34Description)]);
    await ms.describe();
    const refused = ms.transport.setSpeed({ transport: { name: 'main' }, speed: 2 });
    await expect(refused).rejects.toBeInstanceOf(NotDescribedError);
    await expect(refused).rejects.toThrow("this director's API 2.0.3 offers no `transport/speed`");
    expect(cueFateOf(await refused.catch((error: unknown) => error))).toBe('not-sent');
    await ms.transport.play({ name: 'main' });
    expect(server.received.map((request) => request.url)).toEqual([DESCRIPTION_PATH, '/api/session/transport/play']);
  });

  it('sends every command as before while the description has not been read: a cue never waits for it', async () => {
    const { ms, server } = await clientOf([]);
    await ms.transport.setSpeed({ transport: { name: 'main' }, speed: 2 });
    expect(server.received.map((request) => request.url)).toEqual(['/api/session/transport/speed']);
  });

  it('keeps today\'s behaviour with a director that has no description', async () => {
    const { ms, server } = await clientOf([json(404, 'Not Found')]);
    await expect(ms.describe()).rejects.toBeInstanceOf(NotOfferedError);
    await expect(ms.describe()).rejects.toBeInstanceOf(NotOfferedError);
    await ms.transport.setSpeed({ transport: { name: 'main' }, speed: 2 });
    expect(server.received.map((request) => request.url)).toEqual([DESCRIPTION_PATH, '/api/session/transport/speed']);
  });

  it('asks again after a failure that was not an answer', async () => {
    const { ms } = await clientOf([json(500, {}), json(500, {}), json(500, {}), json(200, r34Description)]);
    await expect(ms.describe()).rejects.toThrow(/answered 500/);
    await expect(ms.describe()).resolves.toMatchObject({ version: '2.0.3' });
  });
});
