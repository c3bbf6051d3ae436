import { afterEach, describe, expect, it, vi } from 'vitest';
import { livePresets, type LiveStatus } from '../src/index.js';
import { LiveClient } from '../src/live/live-client.js';
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
