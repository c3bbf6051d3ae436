/**
 * The built plugin's inspector answers about a server that speaks the API's envelope but whose results are
 * nonsense: every dropdown gets an error in words from core, never a TypeError from reading what is missing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeStreamDeck, type JsonObject } from '../harness/fake-stream-deck.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';
const ok = { code: 0, message: '', details: [] };
const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** What a broken server says to each path the inspector asks about: the envelope, and results that are not. */
const NONSENSE: Record<string, unknown> = {
  '/api/session/status/session': { status: ok, result: null },
  '/api/session/transport/transports': { status: ok, transports: [null] },
  '/api/session/transport/tracks': { status: ok, result: [{ uid: '1' }] },
  '/api/session/transport/annotations': { status: ok, result: { uid: '1', name: 'Intro' } },
};

async function startBrokenServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(NONSENSE[(req.url ?? '').split('?')[0] ?? ''] ?? { status: ok }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('the inspector, asking a server that answers nonsense', () => {
  let deck: FakeStreamDeck;
  let broken: { server: Server; url: string };

  beforeEach(async () => {
    broken = await startBrokenServer();
    deck = await FakeStreamDeck.start();
    deck.globalSettings.host = broken.url;
    await deck.launch();
  });

  afterEach(async () => {
    await deck.close();
    broken.server.closeAllConnections();
    await new Promise<void>((resolve) => broken.server.close(() => resolve()));
  });

  async function ask(request: string, extra: JsonObject = {}): Promise<JsonObject> {
    const requestId = `${request}-${deck.commands.length}`;
    deck.sendToPlugin('cue', { request, ...extra, requestId });
    const answer = await deck.waitFor(
      (commands) => commands.find((c) => c.event === 'sendToPropertyInspector' && (c.payload as JsonObject).requestId === requestId),
      `the ${request} answer`,
    );
    return answer.payload as JsonObject;
  }

  it('says the answer is not in the API shape for every dropdown and the connection line', async () => {
    deck.appear({ action: TRANSPORT, context: 'cue', settings: { command: 'gotosection', transport: 'main' } });
    deck.inspectorAppear('cue');

    const answers = [
      await ask('transports'),
      await ask('tracks'),
      await ask('sections', { track: 'Intro' }),
      await ask('notes', { track: 'Intro' }),
      await ask('machines'),
    ];
    for (const answer of answers) {
      expect(answer).not.toHaveProperty('items');
      expect(text(answer.error)).toMatch(/answered, but not in the shape the API specifies: .* Check that this address is a media server/);
    }
    expect(answers.map((answer) => /specifies: (\S+)/.exec(text(answer.error))?.[1])).toEqual([
      'transports[0]',
      'result[0].name',
      'result.annotations',
      'result.annotations',
      'result',
    ]);
    const connection = await ask('connection');
    expect(connection).toMatchObject({ state: 'refused' });
    expect(text(connection.message)).toContain('not in the shape the API specifies');
    expect(deck.output).not.toMatch(/Cannot read properties|TypeError/);
    expect(deck.exitCode).toBeNull();
  });
});
