import { describe, expect, it } from 'vitest';
import { simControl, startSimulator, type LogEntry } from '../src/index.js';
import { simulatorPerFile } from './support/simulator-per-file.js';

/** The HTTP faults venues report, switched on through the control endpoint, over real sockets. */

const TRANSPORTS = '/api/session/transport/transports';
const SESSION = '/api/session/status/session';
const GOTO_TRACK = '/api/session/transport/gototrack';
const ACTIVE = '/api/session/transport/activetransport';

/** Resolves to whatever the promise gives within `ms`, or to `'pending'`. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);

/**
 * Opens an answer and reads its body until at least `bytes` have arrived (or it ends, or nothing comes for
 * seconds); `next` is the read still out, for the test to check that nothing more comes.
 */
async function openStalled(url: string, abort: AbortController, bytes: number) {
  const response = await fetch(url, { signal: abort.signal });
  const reader = response.body?.getReader();
  if (!reader) throw new Error('the answer has no body');
  let received = 0;
  let next = reader.read();
  while (received < bytes) {
    const chunk = await within(next, 10_000);
    if (chunk === 'pending' || chunk.done) break;
    received += chunk.value.length;
    next = reader.read();
  }
  next.catch(() => undefined); // settles (rejects) once the socket is closed
  return { response, received, next };
}

describe.each(['spec', 'r34'] as const)('answer faults in the %s dialect', (dialect) => {
  const logged: LogEntry[] = [];
  const sim = simulatorPerFile({ dialect, port: 0, drivePort: 0, log: (entry) => logged.push(entry) });
  const url = (path: string) => sim().mediaServer.url + path;
  const control = (request: { action: string; [key: string]: unknown }) => simControl(sim().mediaServer.url, request);
  const post = (path: string, body: unknown) => fetch(url(path), { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  it('stallBody sends the headers and half the body of a path, then nothing, while status/session answers', async () => {
    const whole = await (await fetch(url(TRANSPORTS))).arrayBuffer();
    const summary = await control({ action: 'stallBody', path: TRANSPORTS, on: true });
    expect(summary.stallBody).toEqual([{ path: TRANSPORTS, afterBytes: null }]);
    const abort = new AbortController();
    try {
      const { response, received, next } = await openStalled(url(TRANSPORTS), abort, Math.floor(whole.byteLength / 2));
      expect(response.status).toBe(200);
      expect(Number(response.headers.get('content-length'))).toBe(whole.byteLength);
      expect(received).toBe(Math.floor(whole.byteLength / 2));
      const session = await fetch(url(SESSION));
      expect(session.status).toBe(200);
      expect(await session.json()).toHaveProperty('result');
      expect(await within(next, 2000)).toBe('pending');
    } finally {
      abort.abort();
    }
    await control({ action: 'stallBody', path: TRANSPORTS, on: false });
    expect((await (await fetch(url(TRANSPORTS))).arrayBuffer()).byteLength).toBe(whole.byteLength);
  });

  it('stallBody sends afterBytes bytes when told', async () => {
    await control({ action: 'stallBody', path: SESSION, on: true, afterBytes: 10 });
    const abort = new AbortController();
    try {
      const { received, next } = await openStalled(url(SESSION), abort, 10);
      expect(received).toBe(10);
      expect(await within(next, 2000)).toBe('pending');
    } finally {
      abort.abort();
    }
  });

  it('stallBody refuses a path that is not a path, and a missing on, with 400', async () => {
    await expect(control({ action: 'stallBody', path: 'transport/transports', on: true })).rejects.toThrow(/answered 400: path must be a request path/);
    await expect(control({ action: 'stallBody', path: TRANSPORTS })).rejects.toThrow(/answered 400: on is missing/);
    await expect(control({ action: 'stallBody', path: TRANSPORTS, on: true, afterBytes: 1.5 })).rejects.toThrow(/afterBytes must be a whole number/);
  });

  it('slowAnswer applies a command at once and answers it late, while reads answer at once', async () => {
    const summary = await control({ action: 'slowAnswer', ms: 2500 });
    expect(summary.slowAnswer).toEqual({ ms: 2500, path: null });
    const sent = performance.now();
    let answeredAt: number | undefined;
    const answered = post(GOTO_TRACK, { transports: [{ transport: { name: 'main' }, track: { name: 'Intro' } }] }).then(async (response) => {
      answeredAt = performance.now();
      return (await response.json()) as { status: { code: number } };
    });
    let landedAt: number | undefined;
    while (landedAt === undefined && answeredAt === undefined) {
      const active = (await (await fetch(url(ACTIVE))).json()) as { result: { name: string; currentTrack: { name: string } }[] };
      if (active.result.find((transport) => transport.name === 'main')?.currentTrack.name === 'Intro') landedAt = performance.now();
    }
    expect((await answered).status.code).toBe(0);
    expect(landedAt).toBeDefined();
    expect(landedAt).toBeLessThan(answeredAt ?? 0);
    expect((answeredAt ?? 0) - sent).toBeGreaterThanOrEqual(2400);
  });

  it('logs a late command whose client gave up before the answer, since it took effect', async () => {
    await control({ action: 'slowAnswer', ms: 1000 });
    const gaveUp = post(GOTO_TRACK, { transports: [{ transport: { name: 'main' }, track: { name: 'Intro' } }] });
    const aborted = new AbortController();
    const cue = fetch(url('/api/session/transport/play'), { method: 'POST', body: JSON.stringify({ transports: [{ name: 'main' }] }), signal: aborted.signal });
    await new Promise((resolve) => setTimeout(resolve, 200));
    aborted.abort();
    await expect(cue).rejects.toThrow();
    await gaveUp;
    await expect.poll(() => logged.some((entry) => entry.path === '/api/session/transport/play'), { timeout: 5000 }).toBe(true);
    expect(logged.find((entry) => entry.path === '/api/session/transport/play')).toMatchObject({ event: 'request', method: 'POST', clientGone: true });
  });

  it('counts a request as it arrives, before its late answer, and not the control ones; reset clears the count', async () => {
    const before = sim().arrivals.count('POST', '/api/session/transport/play');
    await control({ action: 'slowAnswer', ms: 60_000, path: '/api/session/transport/play' });
    const aborted = new AbortController();
    let settled = false;
    const cue = fetch(url('/api/session/transport/play?x=1'), { method: 'POST', body: JSON.stringify({ transports: [{ name: 'main' }] }), signal: aborted.signal }).finally(() => {
      settled = true;
    });
    cue.catch(() => undefined);
    await expect.poll(() => sim().arrivals.count('POST', '/api/session/transport/play'), { timeout: 5000 }).toBe(before + 1);
    expect(settled).toBe(false);
    aborted.abort();
    expect(sim().arrivals.count('POST', '/__sim/control')).toBe(0);
    await control({ action: 'reset' });
    expect(sim().arrivals.count('POST', '/api/session/transport/play')).toBe(0);
  });

  it('slowAnswer with a path answers every request to that path late, GETs included, and ms 0 clears it', async () => {
    await control({ action: 'slowAnswer', ms: 2500, path: SESSION });
    const sent = performance.now();
    expect((await fetch(url(SESSION))).status).toBe(200);
    expect(performance.now() - sent).toBeGreaterThanOrEqual(2400);
    expect((await control({ action: 'slowAnswer', ms: 0 })).slowAnswer).toBeNull();
    await expect(control({ action: 'slowAnswer', ms: -1 })).rejects.toThrow(/answered 400: ms must be a whole number/);
    await expect(control({ action: 'slowAnswer', ms: 10, path: 42 })).rejects.toThrow(/answered 400: path must be a string/);
  });

  it('reset clears the answer faults', async () => {
    await control({ action: 'stallBody', path: TRANSPORTS, on: true });
    await control({ action: 'slowAnswer', ms: 500 });
    expect(await control({ action: 'reset' })).toMatchObject({ stallBody: [], slowAnswer: null });
  });
});

describe('a stalled answer when the simulator closes', () => {
  it('is ended with its socket: close() does not wait for the client', async () => {
    const sim = await startSimulator({ port: 0, drivePort: 0 });
    const abort = new AbortController();
    try {
      await simControl(sim.mediaServer.url, { action: 'stallBody', path: TRANSPORTS, on: true });
      const { next } = await openStalled(sim.mediaServer.url + TRANSPORTS, abort, 1);
      await sim.close();
      await expect(next).rejects.toThrow();
    } finally {
      abort.abort();
      await sim.close();
    }
  });
});
