import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { livePresets, type LiveStatus } from '../src/index.js';
import { LiveClient } from '../src/live/live-client.js';
import type { SubscribeFrame, UnsubscribeFrame } from '../src/live/protocol.js';
import { silentLogger } from '../src/http/logger.js';
import { startLiveServer } from './support/live-server.js';

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

describe('LiveClient', () => {
  it('connects to the machine it was given when the look for the director fails, with no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    open.push({ close: () => void process.off('unhandledRejection', onUnhandled) });
    const server = await startLiveServer();
    server.state.hold = true;
    open.push(server);
    const warnings: string[] = [];
    const lookFails = () => Promise.reject(new Error('no machine of the session answered'));
    const live = new LiveClient(() => server.url.replace(/^ws/, 'http'), {}, { warn: (line) => warnings.push(line) }, lookFails);
    open.push(live);

    const statuses: LiveStatus[] = [];
    live.subscribe(livePresets.localFps(), () => undefined, { onStatus: (status) => statuses.push(status) });
    await vi.waitFor(() => expect(statuses).toContain('online'));
    expect(warnings.join('\n')).toContain('no machine of the session answered');
    expect(unhandled).toEqual([]);
  });
});

/** A live-update server that lists every subscription and feeds it only while `feeding` is on. */
async function startQuietServer() {
  const { WebSocketServer } = await import('ws');
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const state = { feeding: false, subscribes: 0, unsubscribes: 0 };
  let nextId = 0;
  wss.on('connection', (ws) => {
    const listed = new Map<number, { objectPath: string; propertyPath: string }>();
    const list = () => ws.send(JSON.stringify({ subscriptions: [...listed].map(([id, pair]) => ({ id, ...pair })) }));
    const feed = setInterval(() => {
      if (state.feeding) ws.send(JSON.stringify({ valuesChanged: [...listed.keys()].map((id) => ({ id, value: 60 })) }));
    }, 20);
    ws.on('close', () => clearInterval(feed));
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as Partial<SubscribeFrame & UnsubscribeFrame>;
      if (frame.subscribe) {
        state.subscribes++;
        listed.set(nextId++, { objectPath: frame.subscribe.object, propertyPath: frame.subscribe.properties[0] ?? '' });
      }
      if (frame.unsubscribe) {
        state.unsubscribes++;
        if ('ids' in frame.unsubscribe) for (const id of frame.unsubscribe.ids) listed.delete(id);
      }
      list();
    });
  });
  const { port } = wss.address() as { port: number };
  const drop = () => {
    for (const client of wss.clients) client.terminate();
  };
  return { origin: `http://127.0.0.1:${port}`, state, drop, close: () => new Promise<void>((resolve) => wss.close(() => resolve())) };
}

describe('LiveClient staleness', () => {
  const quick = { silenceMinMs: 100, answerWaitMs: 150, probeBaseMs: 100, probeCapMs: 200 };

  it('tells a subscription stale while its values stopped and the socket stayed up, and live again with values', async () => {
    const server = await startQuietServer();
    open.push(server);
    const live = new LiveClient(() => server.origin, quick, silentLogger);
    open.push(live);
    const linkStatuses: string[] = [];
    live.on('status', (status) => linkStatuses.push(status));
    const statuses: LiveStatus[] = [];
    const subscription = live.subscribe(livePresets.localFps(), () => undefined, { onStatus: (status) => statuses.push(status) });

    await vi.waitFor(() => expect(statuses.at(-1)).toBe('stale'), { timeout: 5000 });
    expect(subscription.status).toBe('stale');
    server.state.feeding = true;
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('online'), { timeout: 5000 });
    expect(statuses).toEqual(['connecting', 'online', 'stale', 'online']);
    expect(linkStatuses).not.toContain('stale');
    expect(server.state.subscribes - server.state.unsubscribes).toBe(1);
  });

  it('goes from stale to offline with nothing between when the stream then drops', async () => {
    const server = await startQuietServer();
    open.push(server);
    const live = new LiveClient(() => server.origin, quick, silentLogger);
    open.push(live);
    const statuses: LiveStatus[] = [];
    live.subscribe(livePresets.localFps(), () => undefined, { onStatus: (status) => statuses.push(status) });
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('stale'), { timeout: 5000 });
    const stale = statuses.length - 1;
    server.drop();
    // The stream may be back and stale again by the next look: what matters is what came right after stale.
    await vi.waitFor(() => expect(statuses.slice(stale)).toContain('offline'), { timeout: 5000 });
    expect(statuses.slice(stale, stale + 2)).toEqual(['stale', 'offline']);
  });
});

describe('LiveClient events and closing', () => {
  it('calls a once-listener of the link status once and then forgets it', async () => {
    const server = await startQuietServer();
    open.push(server);
    const live = new LiveClient(() => server.origin, { reconnectBaseMs: 20, reconnectCapMs: 50 }, silentLogger);
    open.push(live);
    const heard: string[] = [];
    const all: string[] = [];
    live.once('status', (status) => heard.push(status));
    live.on('status', (status) => all.push(status));
    live.subscribe(livePresets.localFps(), () => undefined);
    await vi.waitFor(() => expect(live.status).toBe('online'));
    server.drop();
    await vi.waitFor(() => expect(all).toContain('offline'));
    expect(heard).toEqual(['connecting']);
    live.removeAllListeners('status');
    expect(live.listenerCount('status')).toBe(0);
  });

  it('leaves nothing running once closed while a refused subscription waits to be asked again: the process exits', async () => {
    const { WebSocketServer } = await import('ws');
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => wss.once('listening', resolve));
    open.push({ close: () => new Promise<void>((resolve) => wss.close(() => resolve())) });
    // A project still loading: every subscribe is refused as an object not found yet, which is retried later.
    wss.on('connection', (ws) => ws.on('message', () => ws.send(JSON.stringify({ error: 'Unable to subscribe: Unable to find object' }))));
    const origin = `http://127.0.0.1:${(wss.address() as { port: number }).port}`;
    // In a process of its own, so that what keeps it alive is the client's alone.
    const script = `
      import { MediaServer } from ${JSON.stringify(new URL('../dist/index.mjs', import.meta.url).href)};
      const ms = new MediaServer({ host: ${JSON.stringify(origin)} });
      await new Promise((refused) => ms.live.subscribe({ object: 'transportmanager:default', properties: ['object.volume'] }, () => {}, { onError: refused }));
      await ms.close();
      setImmediate(() => console.log(JSON.stringify(process.getActiveResourcesInfo())));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000 });
    expect(JSON.parse(stdout) as string[]).not.toContain('Timeout');
  });
});
