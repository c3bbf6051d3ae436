import { describe, expect, it } from 'vitest';
import { startSimulator } from '../src/index.js';
import { MAX_UINT64_UID } from '../src/state/uids.js';
import { simulatorPerFile } from './support/simulator-per-file.js';

// The documents' dialect: these tests pin its envelopes and its single address for the hardware family.
const sim = simulatorPerFile({ port: 0, dialect: 'spec' });

async function send(method: string, path: string, body?: string) {
  const response = await fetch(sim().mediaServer.url + path, { method, body, headers: { 'content-type': 'application/json' } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: JSON.parse(text) as unknown };
}

const control = (action: Record<string, unknown>) => send('POST', '/__sim/control', JSON.stringify(action));

describe('session and service families', () => {
  it('answer a reference to something missing with HTTP 200 and a non-zero status.code naming it', async () => {
    const answer = await send('POST', '/api/session/transport/gototrack', JSON.stringify({ transports: [{ transport: { name: 'main' }, track: { name: 'Encore' } }] }));
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: { code: 5, message: expect.stringContaining('Track "Encore" not found') as unknown, details: [] } });
  });

  it('answer invalid JSON with HTTP 400 and the envelope', async () => {
    const answer = await send('POST', '/api/session/transport/play', '{"transports": [');
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ status: { code: 3, message: expect.stringContaining('not valid JSON') as unknown } });
  });

  it('answer a body of the wrong shape with HTTP 400, naming the field', async () => {
    const answer = await send('POST', '/api/session/transport/gototime', JSON.stringify({ transports: [{ transport: { name: 'main' }, time: '10' }] }));
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ status: { code: 3, message: 'transports[0].time must be a number (got string "10").' } });
  });

  it('refuse a uid sent as a JSON number', async () => {
    const answer = await send('POST', '/api/session/transport/play', '{"transports": [{"uid": 9007199254740993}]}');
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('lose digits');
  });

  it('keep a uint64 uid exactly as sent, in queries and answers', async () => {
    const answer = await send('GET', `/api/session/transport/annotations?uid=${MAX_UINT64_UID}`);
    expect(answer.text).toContain(`"uid":"${MAX_UINT64_UID}"`);
    expect(answer.json).toMatchObject({ result: { name: 'Finale' } });
  });

  it('answer an unknown path with 404 and a wrong method with 405, in the family shape', async () => {
    const unknown = await send('GET', '/api/session/transport/rewind');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ status: { code: 5, message: 'No such endpoint: GET /api/session/transport/rewind.' } });
    const wrongMethod = await send('GET', '/api/session/transport/play');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });
});

describe('hardware family', () => {
  it('answers 401 "login required" to a write before any login, before looking at the body', async () => {
    const answer = await send('POST', '/api/vfcs', 'not json');
    expect(answer).toMatchObject({ status: 401, json: { message: 'login required' } });
  });

  it('answers 400 to a body of the wrong shape once logged in', async () => {
    await control({ action: 'login', loggedIn: true });
    const answer = await send('POST', '/api/localmachine', JSON.stringify({ hostname: 'a' }));
    expect(answer).toMatchObject({ status: 400, json: { message: 'serial is missing.' } });
  });

  it('answers 404 for an unknown MAC, on reads and on writes before the body is checked', async () => {
    await control({ action: 'login', loggedIn: true });
    expect((await send('GET', '/api/networkadapters/00-00-00-00-00-00')).status).toBe(404);
    expect((await send('POST', '/api/networkadapters/00-00-00-00-00-00', '{}')).status).toBe(404);
  });

  it('answers unknown /api paths with 404 {message}', async () => {
    expect(await send('GET', '/api/teapot')).toMatchObject({ status: 404, json: { message: 'No such endpoint: GET /api/teapot.' } });
  });

  it('reads a target starting with // as a path, not as another host', async () => {
    expect((await send('GET', '//other.example/api/smc')).status).toBe(404);
  });
});

describe('faults and control', () => {
  it('failNext fails the next requests with that status, in the family shape, and control requests are not counted', async () => {
    await control({ action: 'failNext', status: 503, count: 2 });
    expect(await control({ action: 'login', loggedIn: true })).toMatchObject({ status: 200 });
    const first = await send('GET', '/api/session/status/health');
    const second = await send('GET', '/api/smc');
    const third = await send('GET', '/api/smc');
    expect(first).toMatchObject({ status: 503, json: { status: { code: 13 } } });
    expect(second).toMatchObject({ status: 503, json: { message: expect.stringContaining('failNext') as unknown } });
    expect(third.status).toBe(200);
  });

  it('answers the control endpoint only to POST', async () => {
    expect((await send('GET', '/__sim/control')).status).toBe(405);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    expect((await send('POST', '/api/session/note', 'x'.repeat(1024 * 1024 + 1))).status).toBe(413);
  });
});

describe('lifecycle', () => {
  it('closes while a request waits out its latency, and close can be called twice', async () => {
    const other = await startSimulator({ port: 0, dialect: 'spec' });
    await fetch(`${other.mediaServer.url}/__sim/control`, { method: 'POST', body: JSON.stringify({ action: 'latency', ms: 60_000 }) });
    const waiting = fetch(`${other.mediaServer.url}/api/session/status/health`);
    await other.close();
    await other.close();
    await expect(waiting).rejects.toThrow();
  });

  it('fails to start on a port already in use', async () => {
    await expect(startSimulator({ port: sim().mediaServer.port, dialect: 'spec' })).rejects.toThrow(/EADDRINUSE/);
  });
});
